"""The Dice Forge table screen.

Left: every hero's panel (built once, updated in place): name, glory, reserves with their caps,
the two faces up as pictures, feats and the module's token. Right: what the engine waits for
(``waiting_for()``), a line for hints and refusals, and the taps that answer it: the faces of a
roll, the options of a choice, the action, a forge in the Sanctuary, a feat. The Sanctuary, the
feats and the module's board can be looked at any time from Menu. Nothing on the screen moves
when the game goes on: the faces of die 1 are always on the left, die 2 on the right; Forge,
Perform and Pass keep their places.

When the order of a divine blessing's two faces changes the outcome (the engine's
``order_matters``: in the Titans module a face may move the token into a zone whose bonus the
other face then gets), the screen asks "Which die first?" in place of the faces, die 1's answer
on the left and die 2's on the right, with Cancel below; the call names the faces in the order
chosen.

The screen keeps no rule and decides no text: it draws what its model
(:class:`~companion.games.dice_forge.model.DiceForgeModel`, no Kivy) says (the heroes, the
prompt and its hint, every choice) and forwards touches to it; the heroes' panels are in
panel.py, the Menu's looks at the table in looks.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame, MenuItem
from companion.games.dice_forge.art import face_art
from companion.games.dice_forge.faces import FacePainter
from companion.games.dice_forge.looks import OFF, Looks, hex_colour
from companion.games.dice_forge.model import DiceForgeModel
from companion.games.dice_forge.panel import PlayerPanel
from companion.games.dice_forge.view import Choice, Outside, Pane
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import natural_size
from companion.widgets import w as _w
from companion.words import plural
from rules import Event
from rules.dice_forge import DiceForge
from vision import Reading

ROW = 52
GAP = 4
#: The note line's colour by what it says (a hint in the label's own muted colour).
NOTE_COLOURS = {"refused": theme.DANGER, "notice": theme.ACCENT}


class DiceForgeScreen(TableScreen):
    """The table screen of Dice Forge (see the module docstring)."""

    model: DiceForgeModel

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[DiceForge] = session.typed(DiceForge)
        super().__init__(host, session, **kwargs)
        app = host
        self.model = DiceForgeModel(self.session, host.correct_roll)
        self.looks = Looks(host, self.model)
        root = _w("Panel", orientation="vertical", padding=4, spacing=4, bg=theme.BACKGROUND)
        self.frame = GameFrame(app, game=lambda: self.game, menu=self.menu_items)
        self.round_label = self.wait_label = self.frame.title
        self.undo_b, self.redo_b = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        body = BoxLayout(spacing=6)
        self.players_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.45)
        body.add_widget(self.players_box)
        right = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.55)
        self.prompt_label = _w("TLabel", text="", bold=True, halign="left",
                               font_size=app.fs(17), size_hint_y=None, height=30)
        self.note_label = _w("TLabel", text="", markup=True, halign="left", valign="top",
                             font_size=app.fs(15), shorten=False, color=theme.MUTED,
                             size_hint_y=None, height=42)
        self.message_label = self.note_label
        right.add_widget(self.prompt_label)
        right.add_widget(self.note_label)
        self.content = BoxLayout(orientation="vertical", spacing=GAP)
        right.add_widget(self.content)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        module = self.game.state.module
        self.panels: dict[str, PlayerPanel] = {}
        for seat, name in enumerate(session.game.setup.players):
            panel = PlayerPanel(app, seat, name, module)
            self.panels[name] = panel
            self.players_box.add_widget(panel)
        #: Buttons on show, by what they do, so tests and the demo can find them.
        self.buttons: dict[str, Any] = {}

    @property
    def game(self) -> DiceForge:
        return self.session.game

    # -- touches -------------------------------------------------------------------------------

    def do(self, act: Callable[[], object]) -> None:
        """A touch: the model acts, then the screen shows it, once (:meth:`TableScreen.act`)."""
        self.act(act)

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note), on the note line."""
        self.model.say(text)
        self.refresh()

    # -- the camera ------------------------------------------------------------------------------

    def wants_camera(self) -> bool:
        return self.camera_ready()

    def camera_ready(self) -> bool:
        """True when the camera can read this game's dice: its rolls count (a real camera, or
        the stand-in chosen) and the calibration profile has a face set that knows Dice Forge
        faces (``companion calibrate faces --game dice-forge``); else faces are tapped."""
        camera = self.host.camera
        profile = self.host.vision_profile()
        if camera is None or not camera.rolls_count or profile is None:
            return False
        return self.model.knows_faces(label for fs in profile.face_sets for label in fs.labels)

    def on_roll(self, reading: Reading) -> None:
        """A settled roll: read at once while a roll of the dice is awaited."""
        self.model.settled = reading
        if self.model.awaits_roll() and self.camera_ready():
            self.use_camera()

    def use_camera(self) -> None:
        """Read the roll from the camera (the model sends what is certain and preselects the
        rest for the players to confirm)."""
        if not self.game.state.steps:
            return
        camera = self.host.camera
        if camera is None or not camera.rolls_count:
            why = "no camera" if camera is None else f"the picture is {camera.label}"
            self.model.message = f"Camera: {why}: tap the faces that came up."
            self.refresh()
            return
        snap = camera.latest()
        reading = self.model.settled if snap is None or snap.moving else snap.reading
        taken = self.model.taken
        self.do(lambda: self.model.read(reading))
        if self.model.taken is not None and self.model.taken is not taken:
            self.host.took_roll(self.model.taken[0])  # the roll log: dice the game took

    # -- drawing ----------------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Drawn again (the model has read the change: its host hands it every change
        first)."""
        self.redraw()

    def redraw(self) -> None:
        model = self.model
        model.outside = Outside(self.use_camera if self.camera_ready() else None,
                                self.frame.ask_end, self.host.end_game,
                                self.frame.show_play_code)
        view = model.view()
        self.frame.title.text = view.title
        self.frame.refresh()
        for name, panel in self.panels.items():
            panel.show(view.heroes[name], view.words)
        self.content.clear_widgets()
        self.buttons = {}
        pane = view.pane
        self.draw(pane)
        self.prompt_label.text = pane.prompt
        tone, text = view.note
        colour = NOTE_COLOURS.get(tone)
        self.note_label.text = (escape_markup(text) if colour is None else
                                f"[color={hex_colour(colour)}]{escape_markup(text)}[/color]")

    def draw(self, pane: Pane) -> None:
        """The right-hand side: the dice's columns, the final places or a grid, then the
        bar."""
        if pane.columns is not None:
            self._dice_columns(pane.columns)
        elif pane.places:
            self._places(pane.places)
        else:
            self._grid([Widget() if c is None else self._choice(c) for c in pane.grid],
                       pane.cols, pane.rows)
        if pane.bar:
            bar = BoxLayout(size_hint_y=None, height=ROW, spacing=GAP)
            for c in pane.bar:
                bar.add_widget(self._choice(c))
            self.content.add_widget(bar)

    def _choice(self, c: Choice) -> Any:
        """A choice. Only a choice that can be made is drawn as one: ``primary`` (the accent)
        is kept for the step that completes a call, and only while it can be tapped. A face
        shows as its picture (its words when it has none, or when the players asked for
        words), its caption beside it."""
        face = c.face
        pictured = face is not None and not self.model.words and face_art(face) is not None
        text = c.text
        if face is not None:
            text = c.caption if pictured else (f"{face}\n{c.caption}" if c.caption else face)
        primary = c.primary and c.enabled
        bg = theme.ACCENT if primary else theme.SELECT if c.selected else theme.BUTTON
        extra: dict[str, Any] = {} if c.shorten else {"shorten": False}
        if face is not None:
            extra["halign"] = "right" if pictured and c.caption else "center"
        b = _w("TButton", text=text, font_size=self.host.fs(c.font), disabled=not c.enabled,
               background_color=bg if c.enabled else OFF, background_disabled_normal="",
               color=(0, 0, 0, 1) if primary else theme.TEXT, disabled_color=theme.MUTED,
               **extra)
        b.bind(on_release=lambda *_: self.do(c.act))
        self.buttons[c.key] = b
        if face is not None:
            b.face = face
        if face is not None and pictured:
            painter = FacePainter(b, face, dim=not c.enabled)
            if c.caption:  # the picture takes what the caption leaves

                def room(button: Any, *_: Any) -> None:
                    width = natural_size(button, button.font_size, None)[0]
                    painter.leave_room(width + 10)

                b.bind(font_size=room, text=room)
                room(b)
            b.painter = painter
        return b

    def _grid(self, widgets: Sequence[Any], cols: int, rows: int | None = None) -> GridLayout:
        """Widgets in a grid that fills the room left (``rows`` keeps the rows' share even
        when fewer widgets are shown; empty cells keep the others in their places)."""
        widgets = list(widgets)
        if rows is not None:
            widgets += [Widget() for _ in range(rows * cols - len(widgets))]
        grid = GridLayout(cols=cols, spacing=GAP)
        for wid in widgets:
            grid.add_widget(wid)
        self.content.add_widget(grid)
        return grid

    def _dice_columns(self, columns: tuple[Sequence[Choice], Sequence[Choice]]) -> None:
        """Die 1's faces on the left, die 2's on the right, each face once, in the same
        places every time."""
        cols = BoxLayout(spacing=8)
        for d, faces in enumerate(columns):
            col = BoxLayout(orientation="vertical", spacing=2)
            col.add_widget(_w("TLabel", text=f"Die {d + 1}", size_hint_y=None, height=22,
                              font_size=self.host.fs(15), color=theme.MUTED))
            grid = GridLayout(cols=2, spacing=GAP)
            for c in faces:
                grid.add_widget(self._choice(c))
            for _ in range(6 - len(faces)):
                grid.add_widget(Widget())  # the faces keep one size, top-aligned
            col.add_widget(grid)
            cols.add_widget(col)
        self.content.add_widget(cols)

    def _places(self, places: Sequence[tuple[int, str, int]]) -> None:
        """The final places, tied players sharing one."""
        rows: list[Widget] = [
            _w("TLabel", text=f"{place}.  {escape_markup(name)}: "
               f"[b]{plural(score, 'glory point')}[/b]", markup=True, halign="left",
               font_size=self.host.fs(18)) for place, name, score in places]
        rows += [Widget() for _ in range(4 - len(rows))]
        box = GridLayout(cols=1, spacing=GAP)
        for r in rows:
            box.add_widget(r)
        self.content.add_widget(box)

    # -- Menu: looking at the Sanctuary, the feats and the module's board ----------------------

    def menu_items(self) -> list[MenuItem]:
        """Two items of the game's own (the frame's menu holds six rows at 800x480): the
        Sanctuary, feats and board in one dialog that turns between them, and the faces in
        words or pictures."""
        board = ", board" if self.game.state.module != "none" else ""
        return [(f"Sanctuary, feats{board}", self.look_sanctuary),
                ("Faces as pictures" if self.model.words else "Faces as words",
                 lambda: self.do(self.model.toggle_words))]

    def look_sanctuary(self) -> ModalView:
        return self.looks.look_sanctuary()

    def look_feats(self) -> ModalView:
        return self.looks.look_feats()

    def look_board(self) -> ModalView:
        return self.looks.look_board()

    @property
    def look_view(self) -> ModalView | None:
        return self.looks.look_view


__all__ = ["DiceForgeScreen", "PlayerPanel"]
