"""The Dice Forge table screen.

Left: every hero's reserves with their caps, glory, score and face-up faces. Right: what the
engine waits for (``waiting_for()``) and the taps that answer it, or the Sanctuary, the feats
and the module board. The screen keeps no rule: the faces offered for a roll are the player's
dice, the options of a choice, the forges and feats are the engine's ``legal_calls()`` and
``legal_purchases()``; a forge of several faces is checked by trying it on a copy of the game.
Everything goes through ``session.try_call`` (the journal records it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.games.dice_forge.adapter import (
    MODULES,
    RolledReading,
    call_from_reading,
    face_name,
    rolled_text,
)
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import w as _w
from rules import Event, RulesError
from rules.dice_forge import Buy, Choose, DiceForge, Forge, Perform, Rolled
from rules.dice_forge.data import CELESTIAL_FACES
from rules.dice_forge.state import Player
from rules.dice_forge.table import GODDESS, TITANS
from vision import Reading

RESOURCES = (("gold", "Gold"), ("sun", "Sun"), ("moon", "Moon"), ("ancient", "Anc"))
#: Resource colours on the dark panels (gold, sun orange-yellow, moon sky blue, ancient green).
RES_COLOUR = {"gold": "F0E442", "sun": "E69F00", "moon": "56B4E9", "ancient": "009E73",
              "glory": "FFFFFF"}
ZONE_COLOUR = {"rebellion_a": (0.45, 0.16, 0.10, 1), "rebellion_b": (0.36, 0.20, 0.12, 1),
               "none": (0.22, 0.23, 0.27, 1), "loyalty_1": (0.10, 0.25, 0.36, 1),
               "loyalty_2": (0.08, 0.30, 0.45, 1), "loyalty_3": (0.05, 0.36, 0.55, 1)}


class PlayerPanel(BoxLayout):
    """One hero at a glance: name, glory and score, reserves with caps, module token, dice."""

    def __init__(self, app: Host, seat: int, name: str, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=4, **kwargs)
        self.name = name
        colour = theme.player_colour(app.settings.palette, seat)
        self.strip = _w("Panel", size_hint_x=None, width=14, bg=colour)
        self.add_widget(self.strip)
        body = _w("Panel", orientation="vertical", padding=(6, 2), bg=theme.PANEL)
        self.body = body
        top = BoxLayout(size_hint_y=0.36, spacing=4)
        self.name_label = _w("TLabel", text=f"[b]{name}[/b]", markup=True, halign="left",
                             font_size=app.fs(19), color=colour, size_hint_x=0.8)
        self.token_label = _w("TLabel", text="", font_size=app.fs(14), halign="left",
                              color=theme.MUTED)
        self.glory_label = _w("TLabel", text="", markup=True, halign="right",
                              font_size=app.fs(18), size_hint_x=1.3)
        top.add_widget(self.name_label)
        top.add_widget(self.token_label)
        top.add_widget(self.glory_label)
        body.add_widget(top)
        mid = BoxLayout(size_hint_y=0.34, spacing=2)
        self.res_labels: dict[str, Any] = {}
        for key, _title in RESOURCES:
            label = _w("TLabel", text="", markup=True, font_size=app.fs(16), halign="left",
                       shorten=False)
            self.res_labels[key] = label
            mid.add_widget(label)
        body.add_widget(mid)
        self.dice_label = _w("TLabel", text="", font_size=app.fs(15), halign="left",
                             color=theme.MUTED, size_hint_y=0.30)
        body.add_widget(self.dice_label)
        self.add_widget(body)

    def show(self, game: DiceForge, active: bool, module: str) -> None:
        p = game.state.player(self.name)
        self.body.bg = (0.24, 0.25, 0.20, 1) if active else theme.PANEL
        self.glory_label.text = (f"[color={RES_COLOUR['glory']}]Glory [b]{p.glory}[/b][/color]"
                                 f"  score {game.score(self.name)}")
        for key, title in RESOURCES:
            label = self.res_labels[key]
            if key == "ancient" and module != "titans":
                label.text = ""
                continue
            cap = p.cap(key)
            have = {"gold": p.gold, "sun": p.sun, "moon": p.moon, "ancient": p.ancient}[key]
            label.text = (f"[color={RES_COLOUR[key]}]{title}[/color] [b]{have}[/b]/{cap}")
        if module == "titans":
            self.token_label.text = f"Titans: {p.titan} ({TITANS[p.titan][3]:+d})"
        elif module == "goddess":
            self.token_label.text = f"Golem: {p.golem}"
        else:
            self.token_label.text = f"{len(p.cards)} feat{'s' * (len(p.cards) != 1)}"
        self.dice_label.text = f"die 1: {p.face_up(0)}   die 2: {p.face_up(1)}"

    def numbers(self) -> dict[str, int]:
        """The figures on show, read back from the labels' text (for tests and checks)."""
        out: dict[str, int] = {}
        for key, label in self.res_labels.items():
            if label.text:
                out[key] = int(label.text.split("[b]")[1].split("[/b]")[0])
                out[f"{key}_cap"] = int(label.text.rsplit("/", 1)[1])
        out["glory"] = int(self.glory_label.text.split("[b]")[1].split("[/b]")[0])
        out["score"] = int(self.glory_label.text.rsplit(" ", 1)[1])
        return out


class DiceForgeScreen(TableScreen):
    """The table screen of Dice Forge (see the module docstring)."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[DiceForge] = session.typed(DiceForge)
        super().__init__(host, session, **kwargs)
        app = host
        #: The camera's newest settled roll (faces need a calibrated Dice Forge face set).
        self.settled: Reading | None = None
        self.view = "play"  # play | sanctuary | feats | board
        self.mode = ""  # "" | forge | perform
        self.picked: dict[int, str] = {}  # roll of both dice: die index -> face tapped
        #: The camera's reading of a roll of both dice the players confirm: (it, as read, the
        #: number of calls then: a reading of another roll is never reported).
        self.read_from: tuple[Reading, RolledReading, int] | None = None
        self.basket: list[Buy] = []  # faces of the forge being built
        self.face: str | None = None  # Sanctuary face chosen, awaiting die and face replaced
        self.wait_key: tuple[Any, ...] = ()
        self.message = ""
        root = _w("Panel", orientation="vertical", padding=4, spacing=4, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=52, spacing=4)
        self.round_label = _w("TLabel", text="", size_hint_x=0.2, font_size=app.fs(17))
        self.wait_label = _w("TLabel", text="", bold=True, color=theme.ACCENT,
                             font_size=app.fs(19), size_hint_x=0.5)
        top.add_widget(self.round_label)
        top.add_widget(self.wait_label)
        self.undo_b = _w("TButton", text="Undo", size_hint_x=0.1, on_release=lambda *_: self.undo())
        self.redo_b = _w("TButton", text="Redo", size_hint_x=0.1, on_release=lambda *_: self.redo())
        top.add_widget(self.undo_b)
        top.add_widget(self.redo_b)
        top.add_widget(_w("TButton", text="Menu", size_hint_x=0.1,
                          on_release=lambda *_: app.show("settings")))
        root.add_widget(top)
        body = BoxLayout(spacing=6)
        self.players_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.45)
        body.add_widget(self.players_box)
        right = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.55)
        tabs = BoxLayout(size_hint_y=None, height=50, spacing=4)
        self.tabs: dict[str, Any] = {}
        for key, title in (("play", "Play"), ("sanctuary", "Sanctuary"), ("feats", "Feats"),
                           ("board", "Board")):
            b = _w("TButton", text=title, font_size=app.fs(16),
                   on_release=lambda *_, k=key: self.show_view(k))
            self.tabs[key] = b
            tabs.add_widget(b)
        right.add_widget(tabs)
        self.content = BoxLayout(orientation="vertical", spacing=4)
        right.add_widget(self.content)
        self.message_label = _w("TLabel", text="", color=theme.DANGER, font_size=app.fs(14),
                                size_hint_y=None, height=0, shorten=False)
        right.add_widget(self.message_label)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        self.panels: dict[str, PlayerPanel] = {}
        for seat, name in enumerate(session.game.setup.players):
            panel = PlayerPanel(app, seat, name)
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
        self.message = text
        self.refresh()

    def show_view(self, view: str) -> None:
        self.view = view
        if view == "play":
            self.mode, self.basket, self.face = "", [], None
        self.refresh()

    def start_forge(self) -> None:
        self.mode, self.basket, self.face = "forge", [], None
        self.view = "sanctuary"
        self.refresh()

    def start_feat(self) -> None:
        self.mode = "perform"
        self.view = "feats"
        self.refresh()

    def pick_face(self, die: int, face: str) -> None:
        """A face tapped for a roll of both dice; the call goes when both are known."""
        self.picked[die] = face
        st = self.game.state.steps[0]
        if len(self.picked) == 2:
            faces = [self.picked[0], self.picked[1]]
            self.picked = {}
            read, self.read_from = self.read_from, None
            calls = len(self.game.history)
            if self.call(rolled_text(st.player, faces)) and read is not None \
                    and read[2] == calls:
                reading, got, _ = read  # the dice statistics: the faces confirmed or corrected
                fixed = {got.dice[k]: face for k, face in enumerate(faces)
                         if k < len(got.dice) and (got.uncertain[k] or got.faces[k] != face)}
                if fixed:
                    self.host.correct_roll(reading, fixed)
            return
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

    def on_roll(self, reading: Reading) -> None:
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
            self.message = f"camera: {why}: tap the faces that came up"
            self.refresh()
            return
        snap = camera.latest()
        reading = self.settled if snap is None or snap.moving else snap.reading
        if reading is None:
            self.message = "the camera has no settled roll yet"
            self.refresh()
            return
        text, got = call_from_reading(p.name, reading, p.dice, which)
        if text is not None:
            self.call(text)
            return
        self.message = f"camera: {got.problem or 'please confirm the faces'}"
        if st.kind == "roll2":
            self.picked = {d: f for d, f in zip(which, got.faces, strict=True)
                           if f is not None and not got.uncertain[which.index(d)]}
            self.read_from = (reading, got, len(self.game.history)) if got.dice else None
        self.refresh()

    def choose_sanctuary_face(self, face: str) -> None:
        self.face = face
        self.refresh()

    def add_buy(self, buy: Buy) -> None:
        self.basket.append(buy)
        self.face = None
        self.refresh()

    def forge_now(self) -> None:
        p = self.game.state.current
        if self.basket and self.call(Forge(p.name, tuple(self.basket)).text()):
            self.mode, self.basket, self.face, self.view = "", [], None, "play"
            self.refresh()

    def cancel_forge(self) -> None:
        self.mode, self.basket, self.face, self.view = "", [], None, "play"
        self.refresh()

    def perform(self, text: str) -> None:
        if self.call(text):
            self.mode, self.view = "", "play"
            self.refresh()

    def choose_module(self, module: str) -> None:
        """Restart this not-yet-played game with another module (the setup step)."""
        game = self.game
        if game.history or game.setup.options.get("module", "none") == module:
            return
        self.host.restart({**game.setup.options, "module": module})

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
                self.picked = {}
                if self.mode and (s.steps or s.phase == "over"):
                    self.mode, self.basket, self.face = "", [], None
                    if self.view in ("sanctuary", "feats"):
                        self.view = "play"
                if events:
                    self.message = ""
            self.wait_key = key
        module = s.module
        rounds = f"Round {min(s.round, s.rounds)}/{s.rounds}"
        self.round_label.text = rounds + ("" if module == "none" else f"\n{module.capitalize()}")
        self.wait_label.text = game.waiting_for()
        self.undo_b.disabled = not game.can_undo
        self.redo_b.disabled = not game.can_redo
        active = s.current.name if s.phase != "over" else ""
        for name, panel in self.panels.items():
            panel.show(game, name == active, module)
            panel.res_labels["ancient"].size_hint_x = 1 if module == "titans" else 0.01
        self.tabs["board"].disabled = module == "none"
        for k, b in self.tabs.items():
            b.background_color = theme.SELECT if k == self.view else theme.BUTTON
        self.message_label.text = self.message
        self.message_label.height = 40 if self.message else 0
        self.content.clear_widgets()
        self.buttons = {}
        {"play": self.draw_play, "sanctuary": self.draw_sanctuary, "feats": self.draw_feats,
         "board": self.draw_board}[self.view]()

    def _button(self, key: str, text: str, action: Callable[..., object], *,
                enabled: bool = True, selected: bool = False, **kwargs: Any) -> Any:
        b = _w("TButton", text=text, font_size=kwargs.pop("font_size", self.host.fs(16)),
               shorten=False, on_release=lambda *_: action(), **kwargs)
        b.disabled = not enabled
        if selected:
            b.background_color = theme.SELECT
        self.buttons[key] = b
        return b

    def _title(self, text: str) -> Any:
        return _w("TLabel", text=text, size_hint_y=None, height=30, font_size=self.host.fs(16),
                  color=theme.MUTED, halign="left")

    def _scroll(self, inner: Any) -> Any:
        inner.size_hint_y = None
        inner.bind(minimum_height=inner.setter("height"))
        view = ScrollView(do_scroll_x=False, bar_width=8)
        view.add_widget(inner)
        return view

    def draw_play(self) -> None:
        game = self.game
        s = game.state
        box = self.content
        if s.phase == "over":
            box.add_widget(self._title("Final standings"))
            lines = [f"{i + 1}. {name}: {game.score(name)} glory"
                     for i, name in enumerate(sorted((p.name for p in s.players),
                                                     key=lambda n: -game.score(n)))]
            box.add_widget(_w("TLabel", text="\n".join(lines), font_size=self.host.fs(20),
                              valign="top"))
            return
        if not game.history:
            row = BoxLayout(size_hint_y=None, height=52, spacing=4)
            row.add_widget(_w("TLabel", text="Module", size_hint_x=0.7, font_size=self.host.fs(16)))
            for m in MODULES:
                row.add_widget(self._button(f"module:{m}", m.capitalize(),
                                            lambda m=m: self.choose_module(m),
                                            selected=m == s.module))
            box.add_widget(row)
        if s.steps:
            st = s.steps[0]
            p = s.player(st.player)
            if st.kind == "roll2":
                self.draw_roll(p, (0, 1))
            elif st.kind == "roll1":
                die = st.data.get("die", -1)
                self.draw_roll(p, (die,) if die >= 0 else (0, 1), minor=True)
            elif st.kind == "celestial":
                box.add_widget(self._title(f"{p.name}: tap the Celestial die's face"))
                grid = GridLayout(cols=2, spacing=4)
                for f in CELESTIAL_FACES:
                    text = Rolled(p.name, (f,), celestial=True).text()
                    grid.add_widget(self._button(f"celestial:{f}", f,
                                                 lambda t=text: self.call(t)))
                box.add_widget(grid)
            else:
                box.add_widget(self._title(f"{p.name} chooses"))
                grid = GridLayout(cols=1, spacing=4, row_default_height=52,
                                  row_force_default=True)
                for c in game.legal_calls():
                    if isinstance(c, Choose):
                        text = c.text()
                        grid.add_widget(self._button(f"choose:{c.option}", c.option,
                                                     lambda t=text: self.call(t)))
                box.add_widget(self._scroll(grid))
            return
        p = s.current
        grid = GridLayout(cols=2, spacing=4, row_default_height=56, row_force_default=True)
        calls = game.legal_calls()
        if s.phase == "after":
            box.add_widget(self._title(f"{p.name}: a second action for 2 sun?"))
        else:
            box.add_widget(self._title(f"{p.name}: forge, perform a feat, or pass"))
            buys = game.legal_purchases()
            grid.add_widget(self._button("forge", "Forge...", self.start_forge,
                                         enabled=any(isinstance(c, Forge) for c in buys)))
            grid.add_widget(self._button("feat", "Perform a feat...", self.start_feat,
                                         enabled=any(isinstance(c, Perform) for c in buys)))
        for c in calls:
            if isinstance(c, Forge | Perform):
                continue
            text = c.text()
            label = text.split(": ", 1)[1] if text.startswith(f"{p.name}: ") else text
            grid.add_widget(self._button(label, label, lambda t=text: self.call(t)))
        box.add_widget(self._scroll(grid))

    def draw_roll(self, p: Player, dice: tuple[int, ...], minor: bool = False) -> None:
        what = "one die" if minor else "both dice"
        self.content.add_widget(self._title(f"{p.name} rolls {what}: tap the faces that came up"))
        cols = BoxLayout(spacing=6)
        for d in dice:
            col = BoxLayout(orientation="vertical", spacing=3)
            col.add_widget(_w("TLabel", text=f"Die {d + 1}", size_hint_y=None, height=24,
                              font_size=self.host.fs(15), color=theme.MUTED))
            faces = list(dict.fromkeys(p.dice[d]))
            grid = GridLayout(cols=1 if len(faces) <= 4 else 2, spacing=3)
            for face in faces:
                if minor:
                    text = rolled_text(p.name, [face], d + 1)
                    action: Callable[..., object] = lambda t=text: self.call(t)  # noqa: E731
                else:
                    action = lambda d=d, f=face: self.pick_face(d, f)  # noqa: E731
                grid.add_widget(self._button(f"die{d + 1}:{face}", face, action,
                                             selected=self.picked.get(d) == face,
                                             font_size=self.host.fs(15)))
            for _ in range(grid.cols * 4 - len(faces) if len(faces) <= 4 else 0):
                grid.add_widget(Widget())  # buttons keep one size, top-aligned
            col.add_widget(grid)
            cols.add_widget(col)
        self.content.add_widget(cols)
        if self.camera_ready():
            self.content.add_widget(self._button("camera", "Read the camera", self.use_camera,
                                                 size_hint_y=None, height=50))

    def draw_sanctuary(self) -> None:
        game = self.game
        s = game.state
        box = self.content
        forging = self.mode == "forge" and not s.steps and s.phase == "action"
        options = self.forge_options() if forging else []
        if forging and self.face is not None:
            box.add_widget(self._title(f"Forge {self.face}: on which die, over which face?"))
            grid = GridLayout(cols=1, spacing=4, row_default_height=52, row_force_default=True)
            for b in options:
                if b.face == self.face:
                    grid.add_widget(self._button(f"over:{b.die}:{b.over}",
                                                 f"die {b.die}, over {b.over}",
                                                 lambda b=b: self.add_buy(b)))
            grid.add_widget(self._button("back", "Back", lambda: self.choose_sanctuary_face_none()))
            box.add_widget(self._scroll(grid))
            return
        if forging:
            chosen = "; ".join(b.text() for b in self.basket) or "tap a face to buy"
            box.add_widget(self._title(f"{s.current.name} forges ({s.current.purse()} gold): "
                                       + chosen))
        grid = GridLayout(cols=1, spacing=3)
        wanted = {b.face for b in options}
        for _pool, cost, faces in game.sanctuary_view():
            row = BoxLayout(size_hint_y=None, height=50, spacing=3)
            row.add_widget(_w("TLabel", text=f"[b]{cost}[/b] gold", markup=True,
                              size_hint_x=None, width=64, font_size=self.host.fs(15),
                              color=(0.94, 0.89, 0.26, 1)))
            counts: dict[str, int] = {}
            for f in faces:
                counts[f] = counts.get(f, 0) + 1
            if not counts:
                row.add_widget(_w("TLabel", text="(empty)", color=theme.MUTED,
                                  font_size=self.host.fs(14)))
            for f, n in counts.items():
                text = f"{f} x{n}"
                if forging:
                    row.add_widget(self._button(f"buy:{f}", text,
                                                lambda f=f: self.choose_sanctuary_face(f),
                                                enabled=f in wanted, font_size=self.host.fs(13)))
                else:
                    row.add_widget(_w("TLabel", text=text, font_size=self.host.fs(13),
                                      shorten=False))
            grid.add_widget(row)
        box.add_widget(self._scroll(grid))
        if forging:
            bar = BoxLayout(size_hint_y=None, height=52, spacing=4)
            bar.add_widget(self._button("forge-now", "Forge", self.forge_now,
                                        enabled=bool(self.basket),
                                        background_color=theme.ACCENT, color=(0, 0, 0, 1)))
            bar.add_widget(self._button("cancel", "Cancel", self.cancel_forge))
            box.add_widget(bar)

    def choose_sanctuary_face_none(self) -> None:
        self.face = None
        self.refresh()

    def draw_feats(self) -> None:
        game = self.game
        s = game.state
        performing = self.mode == "perform" and not s.steps and s.phase == "action"
        legal = {c.card: c for c in game.legal_purchases() if isinstance(c, Perform)} \
            if performing else {}
        if performing:
            self.content.add_widget(self._title(f"{s.current.name}: perform which feat?"))
        grid = GridLayout(cols=1, spacing=3, row_default_height=50, row_force_default=True)
        for slot, name, sun, moon, left in game.feat_view():
            price = " + ".join(x for x in (f"{sun} sun" if sun else "",
                                           f"{moon} moon" if moon else "") if x)
            text = f"{slot}  {name}  ({price}, {left} left)"
            call = legal.get(name)
            if call is not None and call.ancient:
                text += f" paying {call.ancient} ancient"
            if performing:
                said = call.text() if call is not None else ""
                grid.add_widget(self._button(f"feat:{name}", text,
                                             lambda t=said: self.perform(t),
                                             enabled=call is not None, font_size=self.host.fs(14)))
            else:
                grid.add_widget(_w("TLabel", text=text, font_size=self.host.fs(14),
                                   halign="left", color=theme.TEXT if left else theme.MUTED))
        self.content.add_widget(self._scroll(grid))
        if performing:
            self.content.add_widget(self._button("cancel", "Cancel", self.cancel_forge,
                                                 size_hint_y=None, height=52))

    def draw_board(self) -> None:
        s = self.game.state
        palette = self.host.settings.palette
        seats = {p.name: i for i, p in enumerate(s.players)}

        def marks(names: list[str]) -> str:
            out = []
            for n in names:
                r, g, b, _ = theme.player_colour(palette, seats[n])
                out.append(f"[color={int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}]"
                           f"[b]{n[:2]}[/b][/color]")
            return " ".join(out)

        if s.module == "titans":
            self.content.add_widget(self._title("Titans: space (end glory); "
                                                "Rebellion left, Loyalty right"))
            grid = GridLayout(cols=8, spacing=2)
            for space, row in sorted(TITANS.items()):
                here = [p.name for p in s.players if p.titan == space]
                cell = _w("Panel", orientation="vertical", bg=ZONE_COLOUR.get(row[4],
                                                                              theme.PANEL))
                cell.add_widget(_w("TLabel", text=f"{space} ({row[3]:+d})",
                                   font_size=self.host.fs(12)))
                cell.add_widget(Label(text=marks(here), markup=True, font_size=self.host.fs(13)))
                grid.add_widget(cell)
            self.content.add_widget(grid)
        elif s.module == "goddess":
            left = ", ".join(s.treasures_left) or "none"
            self.content.add_widget(self._title(f"Labyrinth (treasures left: {left})"))
            grid = GridLayout(cols=6, spacing=2)
            for space, data in sorted(GODDESS.items()):
                here = [p.name for p in s.players if p.golem == space]
                kind, _, arg = str(data.get("reward", "none")).partition(":")
                reward = {"celestial": f"celestial x{arg}", "forge": f"forge -{arg} gold",
                          "steal": f"steal {arg}", "gain": arg, "pay": arg.replace("=", ">"),
                          "choose": arg.replace("|", "/"), "per_forged": "per forged",
                          "none": ""}.get(kind, kind)
                hall = s.halls.get(str(space))
                if hall:
                    reward = f"hall: {hall}"
                cell = _w("Panel", orientation="vertical", bg=theme.PANEL)
                cell.add_widget(_w("TLabel", text=f"[b]{space}[/b] {reward}", markup=True,
                                   font_size=self.host.fs(11), shorten=False))
                cell.add_widget(Label(text=marks(here), markup=True, font_size=self.host.fs(13)))
                grid.add_widget(cell)
            self.content.add_widget(grid)
        else:
            self.content.add_widget(self._title("No module in this game"))
