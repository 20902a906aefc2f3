"""What a Dice Forge die face looks like, in plain data (no Kivy): the marks drawn on its
picture (resource symbols with their amounts, a colour, a short word), read from the face's
words through the engine's own face reader. ``faces.py`` draws them.

>>> art = face_art("3 gold or 2 glory")
>>> art.marks, art.choice
((Mark(resource='gold', amount=3), Mark(resource='glory', amount=2)), True)
>>> face_art("red shield").word, face_art("red shield").marks
('red\\nshield', (Mark(resource='sun', amount=0),))
>>> face_art("no such face") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice_forge import data as D

#: The resources a face may show, in the order they are drawn.
RESOURCES = ("gold", "sun", "moon", "glory", "ancient", "loyalty")


@dataclass(frozen=True)
class Mark:
    """A resource symbol with its amount (0: the symbol alone, e.g. a shield's condition)."""

    resource: str
    amount: int


@dataclass(frozen=True)
class FaceArt:
    """The picture of a face: ``marks`` (all of them gained, or one of them when ``choice``),
    a ``colour`` for the coloured Garden and Forest faces, a short ``word`` drawn under the
    marks (or alone) so a face never depends on colour or shape only."""

    marks: tuple[Mark, ...] = ()
    choice: bool = False
    colour: str = ""
    word: str = ""


#: The Celestial die's faces that are not resource faces, in words a picture can carry.
CELESTIAL_WORDS = {"3 glory + choice": ((Mark("glory", 3),), "+ choice"),
                   "choose face": ((), "choose\na face"),
                   "double upgrade": ((), "upgrade\ntwice")}


def _marks(parts: D.Parts) -> tuple[Mark, ...]:
    return tuple(Mark(r, n) for r, n in parts)


def face_art(face: str) -> FaceArt | None:
    """The picture of ``face`` (a face's words, as the engine says them), or None when the face
    has no picture (the screen shows its words)."""
    if face in CELESTIAL_WORDS:
        marks, word = CELESTIAL_WORDS[face]
        return FaceArt(marks, word=word)
    try:
        info = D.face_info(face)
    except ValueError:
        return None
    if info.kind == "gain":
        return FaceArt(_marks(info.parts))
    if info.kind == "choice":
        return FaceArt(tuple(m for o in info.options for m in _marks(o)), choice=True)
    if info.kind == "shield":
        spec = D.load("faces")["shield"][info.colour]
        return FaceArt((Mark(str(spec["resource"]), 0),), colour=info.colour,
                       word=f"{info.colour}\nshield")
    if info.kind in ("boar", "chaos", "misfortune"):
        return FaceArt(colour=info.colour, word=f"{info.colour}\n{info.kind}")
    if info.kind == "golem":
        return FaceArt((Mark(face.split()[0], 0),), word="golem")
    words = {"triple": "x3", "mirror": "mirror", "ship": "ship"}
    return FaceArt(word=words.get(info.kind, face))


__all__ = ["RESOURCES", "FaceArt", "Mark", "face_art"]
