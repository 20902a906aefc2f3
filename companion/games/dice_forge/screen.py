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

The screen keeps no rule: the faces offered for a roll are the player's dice, the options of a
choice, the forges and feats are the engine's ``legal_calls()`` and ``legal_purchases()``; a
forge of several faces is checked by trying it on a copy of the game. Everything goes through
``session.try_call`` (the journal records it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame, MenuItem, dialog
from companion.games.dice_forge.adapter import (
    RolledReading,
    call_from_reading,
    face_name,
    rolled_text,
)
from companion.games.dice_forge.art import face_art
from companion.games.dice_forge.faces import FacePainter, SymbolPainter
from companion.games.pages import one_page
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import natural_size
from companion.widgets import w as _w
from companion.words import plural
from rules import Event, RulesError
from rules.dice_forge import Buy, Choose, DiceForge, Forge, Pass, Perform, Rolled
from rules.dice_forge import data as D
from rules.dice_forge.data import CELESTIAL_FACES
from rules.dice_forge.state import Player
from rules.dice_forge.table import GODDESS, TITANS
from vision import Reading

#: The camera's reading of a blessing and the faces the players confirmed or corrected in it
#: (by die index in the reading), for the dice statistics (Host.correct_roll).
RollFix = tuple[Reading, dict[int, str]]

RESOURCES = (("gold", "gold"), ("sun", "sun"), ("moon", "moon"), ("ancient", "ancient"))
ZONE_COLOUR = {"rebellion_a": (0.45, 0.16, 0.10, 1), "rebellion_b": (0.36, 0.20, 0.12, 1),
               "none": (0.22, 0.23, 0.27, 1), "loyalty_1": (0.10, 0.25, 0.36, 1),
               "loyalty_2": (0.08, 0.30, 0.45, 1), "loyalty_3": (0.05, 0.36, 0.55, 1)}
#: A choice that cannot be made now (drawn flat, so it never looks like a live button).
OFF: theme.RGBA = (0.17, 0.18, 0.21, 1)
ROW = 52
GAP = 4
#: What a choice the engine waits for is about, by its tag.
CHOICE_HINTS = {
    "parts": "Tap what to gain.", "wind": "Tap what to gain.", "companion": "Tap what to gain.",
    "copy": "Tap the face to copy.", "twins": "Keep the roll, or roll again?",
    "cerberus": "Use Cerberus (the faces again), or not?", "turn": "Tap the face to turn up.",
    "upgrade": "Tap the face to upgrade.", "fork": "Which way does the golem go?",
    "treasure": "Tap the treasure to take.", "pay": "Pay, or not?",
    "satyrs": "Tap a face the others rolled.", "place": "Where does the face go?",
    "memory": "Tap an island.", "give": "Give the face to whom?",
    "forge": "Tap the face to forge (free).", "right_hand": "How much gold to spend?",
    "first_titan": "Tap the feat to take.", "elder": "Pay 3 gold for 4 glory, or not?",
    "merchant": "Tap the upgrade.", "scepter": "Sun or moon?",
}


def hex_colour(rgba: Sequence[float]) -> str:
    return "".join(f"{int(c * 255):02x}" for c in rgba[:3])


def sanctuary_faces() -> list[tuple[str, int]]:
    """Every face the Sanctuary sells, once, with its cost, in the order of its pools: the
    places of the forge's buttons (they never move as pools empty)."""
    out: list[tuple[str, int]] = []
    for _pool, (cost, _level, faces) in D.sanctuary().items():
        for face in dict.fromkeys(faces):
            out.append((face, cost))
    return out


def short_card(name: str) -> str:
    """A feat's name without its article: "Mirror of the Abyss"."""
    return name.removeprefix("The ")


class PlayerPanel(BoxLayout):
    """One hero at a glance, built once and updated in place: name and glory; gold, sun, moon
    (and ancient shards with Titans) with their caps; the faces up as pictures; feats, the
    module's token and the score as it would count now."""

    def __init__(self, app: Host, seat: int, name: str, module: str, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=4, **kwargs)
        self.name = name
        colour = theme.player_colour(app.settings.palette, seat)
        self.add_widget(_w("Panel", size_hint_x=None, width=12, bg=colour))
        body = _w("Panel", orientation="vertical", padding=(6, 2), spacing=1, bg=theme.PANEL)
        self.body = body
        top = BoxLayout(size_hint_y=0.36, spacing=4)
        self.name_label = _w("TLabel", text=f"[b]{escape_markup(name)}[/b]", markup=True,
                             halign="left", font_size=app.fs(19), color=colour)
        self.glory_label = _w("TLabel", text="", markup=True, halign="right",
                              font_size=app.fs(18), size_hint_x=None, width=104)
        top.add_widget(self.name_label)
        top.add_widget(self.glory_label)
        body.add_widget(top)
        mid = BoxLayout(size_hint_y=0.30, spacing=2)
        self.res_labels: dict[str, Any] = {}
        self.symbols: list[SymbolPainter] = []
        for key, _title in RESOURCES:
            if key == "ancient" and module != "titans":
                continue
            icon = Widget(size_hint_x=None, width=24)
            self.symbols.append(SymbolPainter(icon, key))
            label = _w("TLabel", text="", markup=True, font_size=app.fs(16), halign="left")
            self.res_labels[key] = label
            mid.add_widget(icon)
            mid.add_widget(label)
        body.add_widget(mid)
        low = BoxLayout(size_hint_y=0.34, spacing=4)
        self.die_views = [Widget(size_hint_x=None), Widget(size_hint_x=None)]
        self.die_faces = [FacePainter(v, pad=1) for v in self.die_views]
        for view in self.die_views:  # square, and no bigger than a finger needs to see
            low.bind(height=lambda _l, h, v=view: setattr(v, "width", min(h, 46)))
            low.add_widget(view)
        self.token_label = _w("TLabel", text="", font_size=app.fs(14), halign="left",
                              color=theme.MUTED)
        self.score_label = _w("TLabel", text="", font_size=app.fs(14), halign="right",
                              color=theme.MUTED, size_hint_x=None, width=76)
        low.add_widget(self.token_label)
        low.add_widget(self.score_label)
        body.add_widget(low)
        self.add_widget(body)

    def show(self, game: DiceForge, active: bool, words: bool) -> None:
        s = game.state
        p = s.player(self.name)
        self.body.bg = (0.26, 0.27, 0.21, 1) if active else theme.PANEL
        for symbol in self.symbols:
            symbol.set_tile(self.body.bg)
        self.glory_label.text = f"[b]{p.glory}[/b] glory"
        for key, label in self.res_labels.items():
            have = {"gold": p.gold, "sun": p.sun, "moon": p.moon, "ancient": p.ancient}[key]
            label.text = f"[b]{have}[/b]/{p.cap(key)}"
        token = plural(len(p.cards), "feat")
        if s.module == "titans":
            token += f" · Titans {p.titan} ({TITANS[p.titan][3]:+d})"
        elif s.module == "goddess":
            token += f" · golem on {p.golem}"
        self.token_label.text = token
        self.score_label.text = f"score {game.score(self.name)}"
        for die, (view, painter) in enumerate(zip(self.die_views, self.die_faces,
                                                  strict=True)):
            face = p.face_up(die)
            painter.show(None if words else face)
            view.face = face  # what the picture shows, in words (tests and checks)
        self.dice_label_text = f"die 1: {p.face_up(0)}   die 2: {p.face_up(1)}"

    def numbers(self) -> dict[str, int]:
        """The figures on show, read back from the labels' text (for tests and checks)."""
        out: dict[str, int] = {}
        for key, label in self.res_labels.items():
            out[key] = int(label.text.split("[b]")[1].split("[/b]")[0])
            out[f"{key}_cap"] = int(label.text.rsplit("/", 1)[1])
        out["glory"] = int(self.glory_label.text.split("[b]")[1].split("[/b]")[0])
        out["score"] = int(self.score_label.text.rsplit(" ", 1)[1])
        return out


class DiceForgeScreen(TableScreen):
    """The table screen of Dice Forge (see the module docstring)."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[DiceForge] = session.typed(DiceForge)
        super().__init__(host, session, **kwargs)
        app = host
        #: The camera's newest settled roll (faces need a calibrated Dice Forge face set).
        self.settled: Any = None
        self.mode = ""  # "" | forge | perform
        self.picked: dict[int, str] = {}  # roll of both dice: die index -> face tapped
        #: The camera's reading of a roll of both dice the players confirm: (it, as read, the
        #: number of calls then: a reading of another roll is never reported).
        self.read_from: tuple[Reading, RolledReading, int] | None = None
        #: A roll of both dice whose order matters: (die 1's face, die 2's face), awaiting
        #: "Which die first?", and the camera's dice the players corrected in it, if any.
        self.ordering: tuple[str, str] | None = None
        self.ordering_fix: RollFix | None = None
        self.basket: list[Buy] = []  # faces of the forge being built
        self.face: str | None = None  # Sanctuary face chosen, awaiting die and face replaced
        self.page = 0  # a long list of choices: the page shown
        self.words = False  # faces shown in words instead of pictures (Menu)
        self.wait_key: tuple[Any, ...] = ()
        self.message = ""  # a refusal (the engine's reason)
        self.notice = ""  # what the app said (Undid: ...)
        self.look_view: ModalView | None = None
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

    # -- taps -------------------------------------------------------------------------------

    @property
    def game(self) -> DiceForge:
        return self.session.game

    def call(self, text: str) -> bool:
        """Send one call through the session; a refusal shows the engine's reason."""
        return self.session.try_call(text) is not None

    def undo(self) -> None:
        self.host.undo()

    def redo(self) -> None:
        self.host.redo()

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note), on the note line."""
        self.notice = text
        self.refresh()

    def tapped(self) -> None:
        """A tap on this screen: the last message has been read."""
        self.message = self.notice = ""

    def start_forge(self) -> None:
        self.tapped()
        self.mode, self.basket, self.face, self.page = "forge", [], None, 0
        self.refresh()

    def start_feat(self) -> None:
        self.tapped()
        self.mode = "perform"
        self.refresh()

    def pick_face(self, die: int, face: str) -> None:
        """A face tapped for a roll of both dice; the call goes when both are known."""
        self.tapped()
        self.picked[die] = face
        st = self.game.state.steps[0]
        if len(self.picked) == 2:
            faces = (self.picked[0], self.picked[1])
            self.picked = {}
            read, self.read_from = self.read_from, None
            fix: RollFix | None = None
            if read is not None and read[2] == len(self.game.history):
                reading, got, _ = read  # the dice statistics: the faces confirmed or corrected
                fixed = {got.dice[k]: face for k, face in enumerate(faces)
                         if k < len(got.dice) and (got.uncertain[k] or got.faces[k] != face)}
                fix = (reading, fixed) if fixed else None
            self.send_roll(st.player, faces, fix)
            return
        self.refresh()

    def send_roll(self, player: str, faces: tuple[str, str], fix: RollFix | None = None) -> None:
        """A divine blessing's faces, die 1's then die 2's: called at once, or, when the order
        they are applied in changes the outcome, after asking which die first. ``fix``: the
        camera's dice the players confirmed or corrected, reported once the call is taken."""
        text = rolled_text(player, faces)
        if self.game.order_matters(text):
            self.ordering, self.ordering_fix = faces, fix
            self.refresh()
            return
        if self.call(text) and fix is not None:
            self.host.correct_roll(*fix)

    def pick_order(self, first: int) -> None:
        """The answer to "Which die first?": die ``first`` (0 or 1) is applied first."""
        self.tapped()
        if self.ordering is None:
            return
        faces = self.ordering if first == 0 else self.ordering[::-1]
        fix, self.ordering, self.ordering_fix = self.ordering_fix, None, None
        if not self.call(rolled_text(self.game.state.steps[0].player, faces)):
            self.refresh()  # refused: the reason shows, and the faces are asked again
        elif fix is not None:
            self.host.correct_roll(*fix)

    def cancel_order(self) -> None:
        """Cancel on "Which die first?": back to tapping the faces."""
        self.tapped()
        self.ordering = self.ordering_fix = None
        self.refresh()

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
        faces = {f for p in self.game.state.players for die in p.dice for f in die}
        return any(face_name(label) in faces for fs in profile.face_sets for label in fs.labels)

    def on_roll(self, reading: Any) -> None:
        """A settled roll: read at once while a roll of the dice is awaited."""
        self.settled = reading
        s = self.game.state
        if s.steps and s.steps[0].kind in ("roll2", "roll1") and self.camera_ready():
            self.use_camera()

    def use_camera(self) -> None:
        """Read the roll from the camera; certain faces go at once, the rest are preselected
        for the players to confirm by touch."""
        s = self.game.state
        if not s.steps:
            return
        st = s.steps[0]
        p = s.player(st.player)
        which = (0, 1) if st.kind == "roll2" else (
            (st.data["die"],) if st.data.get("die", -1) >= 0 else (0,))
        camera = self.host.camera
        if camera is None or not camera.rolls_count:
            why = "no camera" if camera is None else f"the picture is {camera.label}"
            self.message = f"Camera: {why}: tap the faces that came up."
            self.refresh()
            return
        snap = camera.latest()
        reading = self.settled if snap is None or snap.moving else snap.reading
        if reading is None:
            self.message = "The camera has no settled roll yet."
            self.refresh()
            return
        text, got = call_from_reading(p.name, reading, p.dice, which)
        if text is not None and st.kind == "roll2":
            seen = [f for f in got.faces if f is not None]  # certain: both read
            self.send_roll(p.name, (seen[0], seen[1]))  # asks which first when that matters
            return
        if text is not None:
            self.call(text)
            return
        self.message = f"Camera: {got.problem or 'please confirm the faces'}."
        if st.kind == "roll2":
            self.picked = {d: f for d, f in zip(which, got.faces, strict=True)
                           if f is not None and not got.uncertain[which.index(d)]}
            self.read_from = (reading, got, len(self.game.history)) if got.dice else None
        self.refresh()

    def choose_sanctuary_face(self, face: str) -> None:
        self.tapped()
        self.face = face
        self.refresh()

    def choose_sanctuary_face_none(self) -> None:
        self.tapped()
        self.face = None
        self.refresh()

    def add_buy(self, buy: Buy) -> None:
        self.tapped()
        self.basket.append(buy)
        self.face = None
        self.refresh()

    def forge_now(self) -> None:
        p = self.game.state.current
        if self.basket and self.call(Forge(p.name, tuple(self.basket)).text()):
            self.mode, self.basket, self.face = "", [], None
            self.refresh()

    def cancel_forge(self) -> None:
        self.tapped()
        self.mode, self.basket, self.face = "", [], None
        self.refresh()

    def perform(self, text: str) -> None:
        if self.call(text):
            self.mode = ""
            self.refresh()

    def turn_page(self, page: int) -> None:
        self.tapped()
        self.page = page
        self.refresh()

    def toggle_words(self) -> None:
        """Faces as words (every face's name) or as pictures."""
        self.words = not self.words
        self.refresh()

    # -- what the engine allows -------------------------------------------------------------

    def forge_options(self) -> list[Buy]:
        """Single faces that may join the forge being built (the engine decides)."""
        p = self.game.state.current
        singles = [c.buys[0] for c in self.game.legal_purchases() if isinstance(c, Forge)]
        if not self.basket:
            return singles
        out: list[Buy] = []
        for b in singles:
            trial = copy.deepcopy(self.game)
            try:
                trial.apply(Forge(p.name, (*self.basket, b)))
            except RulesError:
                continue
            out.append(b)
        return out

    # -- drawing ----------------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        game = self.game
        if self.session.message:  # a refusal: the engine's reason
            self.message, self.session.message = self.session.message, ""
        s = game.state
        key = (len(game.history), game.waiting_for())
        if key != self.wait_key:  # the table moved on: drop half-built taps
            if self.wait_key:
                self.picked, self.page, self.ordering = {}, 0, None
                if self.mode and (s.steps or s.phase != "action"):
                    self.mode, self.basket, self.face = "", [], None
                if events:
                    self.message = self.notice = ""
            self.wait_key = key
        rounds = f"Round {min(s.round, s.rounds)} of {s.rounds}"
        self.frame.title.text = rounds + ("" if s.module == "none"
                                          else f" · {s.module.capitalize()}")
        self.frame.refresh()
        active = s.current.name if s.phase != "over" else ""
        for name, panel in self.panels.items():
            panel.show(game, name == active, self.words)
        self.content.clear_widgets()
        self.buttons = {}
        prompt, hint = self.draw_content()
        self.prompt_label.text = prompt
        if self.message:
            note = f"[color={hex_colour(theme.DANGER)}]{escape_markup(self.message)}[/color]"
        elif self.notice:
            note = f"[color={hex_colour(theme.ACCENT)}]{escape_markup(self.notice)}[/color]"
        else:
            note = escape_markup(hint)
        self.note_label.text = note

    def draw_content(self) -> tuple[str, str]:
        """Fill the right-hand side for what the engine waits for; returns the prompt and
        its hint."""
        game = self.game
        s = game.state
        if s.phase == "over":
            return self.draw_over()
        if s.steps:
            st = s.steps[0]
            p = s.player(st.player)
            if st.kind == "roll2" and self.ordering is not None:
                return self.draw_order(p, self.ordering)
            if st.kind == "roll2":
                return self.draw_roll(p, (0, 1))
            if st.kind == "roll1":
                die = st.data.get("die", -1)
                return self.draw_roll(p, (die,) if die >= 0 else (0, 1), minor=True)
            if st.kind == "celestial":
                return self.draw_celestial(p)
            return self.draw_choose(p)
        if self.mode == "forge" and s.phase == "action":
            return self.draw_forge()
        if self.mode == "perform" and s.phase == "action":
            return self.draw_feats()
        return self.draw_action()

    # -- building blocks ----------------------------------------------------------------------

    def _button(self, key: str, text: str, action: Callable[..., object], *,
                enabled: bool = True, selected: bool = False, primary: bool = False,
                font: float = 16, **kwargs: Any) -> Any:
        """A choice. Only a choice that can be made is drawn as one: ``primary`` (the accent)
        is kept for the step that completes a call, and only while it can be tapped."""
        primary = primary and enabled
        bg = theme.ACCENT if primary else theme.SELECT if selected else theme.BUTTON
        b = _w("TButton", text=text, font_size=self.host.fs(font), disabled=not enabled,
               background_color=bg if enabled else OFF, background_disabled_normal="",
               color=(0, 0, 0, 1) if primary else theme.TEXT, disabled_color=theme.MUTED,
               **kwargs)
        b.bind(on_release=lambda *_: action())
        self.buttons[key] = b
        return b

    def _face_button(self, key: str, face: str, action: Callable[..., object], *,
                     enabled: bool = True, selected: bool = False, caption: str = "",
                     font: float = 14) -> Any:
        """A face to tap, as a picture (its words when the face has none, or when the players
        asked for words); ``caption`` is written beside the picture."""
        pictured = not self.words and face_art(face) is not None
        text = caption if pictured else (f"{face}\n{caption}" if caption else face)
        b = self._button(key, text, action, enabled=enabled, selected=selected, font=font,
                         halign="right" if pictured and caption else "center", shorten=False)
        b.face = face
        if pictured:
            painter = FacePainter(b, face, dim=not enabled)
            if caption:  # the picture takes what the caption leaves

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

    def _bar(self, *buttons: Any) -> None:
        """A row of buttons at the bottom (Forge, Cancel, Back...)."""
        bar = BoxLayout(size_hint_y=None, height=ROW, spacing=GAP)
        for b in buttons:
            bar.add_widget(b)
        self.content.add_widget(bar)

    def _paged(self, widgets: Sequence[Any], cols: int, rows: int) -> None:
        """A grid of ``rows`` x ``cols``, one page at a time: when the choices do not fit, the
        last cell turns the page. Nothing scrolls, so a button stays where it was drawn."""
        shown, page, pages = one_page(widgets, cols * rows, self.page)
        cells = [Widget() if w is None else w for w in shown]
        if pages > 1:
            cells.append(self._button("page:more", f"More {page + 1}/{pages}",
                                      lambda: self.turn_page(page + 1)))
        self._grid(cells, cols, rows)

    # -- what is drawn on the right --------------------------------------------------------------

    def _dice_columns(self, p: Player, button: Callable[[int, str], Any]) -> None:
        """Die 1's faces on the left, die 2's on the right, each face once, in the same
        places every time (``button(die, face)`` makes each face's button)."""
        cols = BoxLayout(spacing=8)
        for d in (0, 1):
            col = BoxLayout(orientation="vertical", spacing=2)
            col.add_widget(_w("TLabel", text=f"Die {d + 1}", size_hint_y=None, height=22,
                              font_size=self.host.fs(15), color=theme.MUTED))
            grid = GridLayout(cols=2, spacing=GAP)
            faces = list(dict.fromkeys(p.dice[d]))
            for face in faces:
                grid.add_widget(button(d, face))
            for _ in range(6 - len(faces)):
                grid.add_widget(Widget())  # the faces keep one size, top-aligned
            col.add_widget(grid)
            cols.add_widget(col)
        self.content.add_widget(cols)

    def draw_roll(self, p: Player, dice: tuple[int, ...], minor: bool = False
                  ) -> tuple[str, str]:
        """The faces of both dice (a minor blessing of one die leaves the other's greyed in
        place)."""
        what = "one die" if minor and len(dice) == 1 else "both dice" if not minor else "a die"

        def button(d: int, face: str) -> Any:
            if minor:
                text = rolled_text(p.name, [face], d + 1)
                action: Callable[..., object] = lambda: self.call(text)  # noqa: E731
            else:
                action = lambda: self.pick_face(d, face)  # noqa: E731
            return self._face_button(f"die{d + 1}:{face}", face, action, enabled=d in dice,
                                     selected=self.picked.get(d) == face)

        self._dice_columns(p, button)
        if self.camera_ready():
            self._bar(self._button("camera", "Read the camera", self.use_camera))
        hint = ("Tap the face that came up." if minor else
                "Tap the face that came up on each die." if not self.picked else
                f"Die {min(self.picked) + 1}: {self.picked[min(self.picked)]}. "
                "Now the other die.")
        return f"{p.name} rolls {what}", hint

    def draw_order(self, p: Player, faces: tuple[str, str]) -> tuple[str, str]:
        """"Which die first?": each die's face in its die's column (die 1 left, die 2 right),
        as a picture (or its words), Cancel in the bar below."""
        buttons = [self._face_button(f"first:{d + 1}", face, lambda d=d: self.pick_order(d),
                                     caption=f"Die {d + 1}\nfirst", font=16)
                   for d, face in enumerate(faces)]
        self._grid(buttons, cols=2, rows=2)
        self._bar(self._button("order-cancel", "Cancel", self.cancel_order))
        return "Which die first?", (f"The order changes what {p.name} gets: tap the die "
                                    "to apply first.")

    def draw_celestial(self, p: Player) -> tuple[str, str]:
        buttons = []
        for f in CELESTIAL_FACES:
            text = Rolled(p.name, (f,), celestial=True).text()
            buttons.append(self._face_button(f"celestial:{f}", f,
                                             lambda t=text: self.call(t)))
        self._grid(buttons, cols=3, rows=2)
        return f"{p.name} rolls the Celestial die", "Tap the face that came up."

    def draw_choose(self, p: Player) -> tuple[str, str]:
        options = [c for c in self.game.legal_calls() if isinstance(c, Choose)]
        buttons = []
        for c in options:
            text = c.text()
            if face_art(c.option) is not None and not self.words:
                buttons.append(self._face_button(f"choose:{c.option}", c.option,
                                                 lambda t=text: self.call(t),
                                                 caption=c.option.replace(" + ", "\n+ ")))
            else:
                words = "Nothing" if c.option == "nothing" else c.option
                buttons.append(self._button(f"choose:{c.option}", words,
                                            lambda t=text: self.call(t), font=15,
                                            shorten=False))
        self._paged(buttons, cols=2, rows=4)
        step = self.game.state.steps[0]
        return f"{p.name} chooses", CHOICE_HINTS.get(str(step.data.get("tag", "")),
                                                     "Tap one of these.")

    def draw_action(self) -> tuple[str, str]:
        """The active player's action: Forge, Perform and Pass (or the extra action and End
        turn) in their places, then every other call the engine allows now."""
        game = self.game
        s = game.state
        p = s.current
        calls = game.legal_calls()
        buttons = []
        if s.phase == "after":
            prompt = f"{p.name}: another action for 2 sun?"
            hint = "An extra action, or end the turn."
        else:
            prompt = f"{p.name}: forge, perform a feat or pass"
            hint = "Forge faces in the Sanctuary, perform a feat, or pass."
            buys = game.legal_purchases()
            buttons.append(self._button("forge", "Forge...", self.start_forge,
                                        enabled=any(isinstance(c, Forge) for c in buys)))
            buttons.append(self._button("feat", "Perform a feat...", self.start_feat,
                                        enabled=any(isinstance(c, Perform) for c in buys)))
        first = [c for c in calls if isinstance(c, Pass)]
        rest = [c for c in calls if not isinstance(c, Forge | Perform | Pass)]
        for c in [*first, *rest]:
            text = c.text()
            label = text.split(": ", 1)[1] if text.startswith(f"{p.name}: ") else text
            buttons.append(self._button(label, label, lambda t=text: self.call(t),
                                        shorten=False))
        self._paged(buttons, cols=2, rows=5)
        return prompt, hint

    def draw_forge(self) -> tuple[str, str]:
        """The Sanctuary: every face it sells in its place (cost and faces left beside it),
        only those the engine allows enabled; then which die and which face it covers."""
        s = self.game.state
        p = s.current
        options = self.forge_options()
        if self.face is not None:
            return self.draw_forge_over(p, options)
        wanted = {b.face for b in options}
        left = self.faces_left()
        buttons = [self._face_button(f"buy:{f}", f, lambda f=f: self.choose_sanctuary_face(f),
                                     enabled=f in wanted, font=13,
                                     caption=f"{cost} gold\n{left.get(f, 0)} left")
                   for f, cost in sanctuary_faces()]
        self._grid(buttons, cols=4, rows=4)
        self._bar(self._button("forge-now", "Forge", self.forge_now, enabled=bool(self.basket),
                               primary=True),
                  self._button("cancel", "Cancel", self.cancel_forge))
        basket = "; ".join(f"{b.face} on die {b.die} over {b.over}" for b in self.basket)
        hint = (f"To forge: {basket}. Another face, or Forge." if basket else
                "Tap a face to buy; then the die and the face it covers.")
        return f"{p.name} forges ({p.purse()} gold)", hint

    def draw_forge_over(self, p: Player, options: list[Buy]) -> tuple[str, str]:
        face = self.face
        assert face is not None

        def button(d: int, over: str) -> Any:
            buy = next((b for b in options if b.face == face and b.die == d + 1
                        and b.over == over), None)
            return self._face_button(f"over:{d + 1}:{over}", over,
                                     lambda: self.add_buy(buy) if buy else None,
                                     enabled=buy is not None)

        self._dice_columns(p, button)
        self._bar(self._button("back", "Back", self.choose_sanctuary_face_none))
        return f"Forge {face}", "On which die, over which face?"

    def draw_feats(self) -> tuple[str, str]:
        """Every feat slot in its place (price and cards left); only those the engine allows
        enabled."""
        game = self.game
        s = game.state
        legal = {c.card: c for c in game.legal_purchases() if isinstance(c, Perform)}
        buttons = []
        for _slot, name, sun, moon, left in game.feat_view():
            price = " ".join(x for x in (f"{sun} sun" if sun else "",
                                         f"{moon} moon" if moon else "") if x)
            call = legal.get(name)
            if call is not None and call.ancient:
                price += f", {plural(call.ancient, 'shard')}"
            said = call.text() if call is not None else ""
            buttons.append(self._button(f"feat:{name}", f"{short_card(name)}\n{price} · "
                                        f"{left} left", lambda t=said: self.perform(t),
                                        enabled=call is not None, font=13, shorten=False))
        self._grid(buttons, cols=3, rows=5)
        self._bar(self._button("cancel", "Cancel", self.cancel_forge))
        return f"{s.current.name} performs a feat", "Tap the feat (its price is paid)."

    def draw_over(self) -> tuple[str, str]:
        game = self.game
        rows = []
        place = 1
        for group in game.placings():  # tied players share a place
            for name in group:
                rows.append(_w("TLabel", text=f"{place}.  {escape_markup(name)}: "
                               f"[b]{plural(game.score(name), 'glory point')}[/b]",
                               markup=True, halign="left", font_size=self.host.fs(18)))
            place += len(group)
        rows += [Widget() for _ in range(4 - len(rows))]
        box = GridLayout(cols=1, spacing=GAP)
        for r in rows:
            box.add_widget(r)
        self.content.add_widget(box)
        self._bar(self._button("standings", "Final standings", self.frame.ask_end),
                  self._button("leave", "Back to start", self.host.end_game, primary=True))
        note = game.standings().note
        winner = game.standings().winner or ""
        # a shared victory is said without the names (two long names do not fit the prompt
        # at the largest text); the places below show who shares it
        return f"{winner} wins" if " and " not in winner else "A shared victory", \
            (note[0].upper() + note[1:] + "." if note else "The game is over.")

    # -- Menu: looking at the Sanctuary, the feats and the module's board ----------------------

    def menu_items(self) -> list[MenuItem]:
        """Two items of the game's own (the frame's menu holds six rows at 800x480): the
        Sanctuary, feats and board in one dialog that turns between them, and the faces in
        words or pictures."""
        board = ", board" if self.game.state.module != "none" else ""
        return [(f"Sanctuary, feats{board}", self.look_sanctuary),
                ("Faces as pictures" if self.words else "Faces as words", self.toggle_words)]

    def _look(self, title: str, body: Any) -> ModalView:
        """A dialog showing part of the table, with buttons to turn to the other parts."""
        turns: list[MenuItem] = [("Sanctuary", self.look_sanctuary), ("Feats", self.look_feats)]
        if self.game.state.module != "none":
            turns.append(("Board", self.look_board))
        self.look_view = dialog(self.host, title, body, [*turns, ("Close", lambda: None)],
                                size=(0.96, 0.94))
        return self.look_view

    def faces_left(self) -> dict[str, int]:
        """How many of each face the Sanctuary still holds."""
        left: dict[str, int] = {}
        for _pool, _cost, faces in self.game.sanctuary_view():
            for f in faces:
                left[f] = left.get(f, 0) + 1
        return left

    def look_sanctuary(self) -> ModalView:
        left = self.faces_left()
        grid = GridLayout(cols=4, spacing=GAP)
        for face, cost in sanctuary_faces():
            cell = BoxLayout(spacing=4)
            caption = f"{cost} gold\n{left.get(face, 0)} left"
            if not self.words and face_art(face) is not None:
                picture = Widget()
                picture.painter = FacePainter(picture, face, dim=not left.get(face))
                cell.add_widget(picture)
            else:
                caption = f"{face}\n{caption}"
            cell.add_widget(_w("TLabel", text=caption, font_size=self.host.fs(14),
                               shorten=False, halign="left",
                               color=theme.TEXT if left.get(face) else theme.MUTED))
            grid.add_widget(cell)
        return self._look("Sanctuary: what is left", grid)

    def look_feats(self) -> ModalView:
        grid = GridLayout(cols=3, spacing=GAP)
        for _slot, name, sun, moon, left in self.game.feat_view():
            price = " ".join(x for x in (f"{sun} sun" if sun else "",
                                         f"{moon} moon" if moon else "") if x)
            grid.add_widget(_w("Panel", bg=theme.BUTTON if left else OFF, padding=(4, 2)))
            grid.children[0].add_widget(_w(
                "TLabel", text=f"{short_card(name)}\n{price} · {left} left",
                font_size=self.host.fs(14), shorten=False,
                color=theme.TEXT if left else theme.MUTED))
        return self._look("Feats: price and cards left", grid)

    def marks(self, names: Sequence[str]) -> str:
        """Heroes on a board space: their first letters (as many as tell them apart) in
        their colours."""
        s = self.game.state
        players = [p.name for p in s.players]
        n = 2
        while n < 16 and len({q[:n] for q in players}) < len(players):
            n += 1
        palette = self.host.settings.palette
        return " ".join(f"[color={hex_colour(theme.player_colour(palette, players.index(q)))}]"
                        f"[b]{escape_markup(q[:n])}[/b][/color]" for q in names)

    def look_board(self) -> ModalView:
        s = self.game.state
        fs = self.host.fs
        if s.module == "titans":
            grid = GridLayout(cols=8, spacing=2)
            for space, row in sorted(TITANS.items()):
                here = [p.name for p in s.players if p.titan == space]
                cell = _w("Panel", orientation="vertical", bg=ZONE_COLOUR.get(row[4],
                                                                              theme.PANEL))
                cell.add_widget(_w("TLabel", text=f"[b]{space}[/b]  {row[3]:+d}", markup=True,
                                   font_size=fs(16)))
                cell.add_widget(_w("TLabel", text=self.marks(here), markup=True,
                                   font_size=fs(15)))
                grid.add_widget(cell)
            return self._look("Titans: space and its glory at the end", grid)
        left = ", ".join(s.treasures_left) or "none"
        grid = GridLayout(cols=6, spacing=2)
        for space, data in sorted(GODDESS.items()):
            here = [p.name for p in s.players if p.golem == space]
            kind, _, arg = str(data.get("reward", "none")).partition(":")
            forge = f"forge -{arg} gold" if arg.strip("0") else "forge a face"  # no discount
            reward = {"celestial": f"celestial x{arg}", "forge": forge,
                      "steal": f"steal {arg}", "gain": arg, "pay": arg.replace("=", " > "),
                      "choose": arg.replace("|", " / "), "per_forged": "per forged",
                      "treasure": "treasure", "goddess": "the Goddess",
                      "none": ""}.get(kind, kind)
            hall = s.halls.get(str(space))
            if hall:
                reward = f"hall: {hall}"
            cell = _w("Panel", orientation="vertical", bg=theme.BUTTON, padding=(3, 0))
            top = BoxLayout(size_hint_y=0.4)
            top.add_widget(_w("TLabel", text=f"[b]{space}[/b]", markup=True, halign="left",
                              font_size=fs(15), size_hint_x=0.35))
            top.add_widget(_w("TLabel", text=self.marks(here), markup=True, halign="right",
                              font_size=fs(14)))
            cell.add_widget(top)
            cell.add_widget(_w("TLabel", text=escape_markup(reward), font_size=fs(11.5),
                               shorten=False, size_hint_y=0.6))
            grid.add_widget(cell)
        return self._look(f"Goddess: the labyrinth (treasures left: {left})", grid)


__all__ = ["DiceForgeScreen", "PlayerPanel"]
