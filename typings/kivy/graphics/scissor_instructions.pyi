from kivy.graphics import Instruction

class ScissorPush(Instruction):
    x: int
    y: int
    width: int
    height: int

class ScissorPop(Instruction): ...
