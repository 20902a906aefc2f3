"""The Dice of the Occulites table screen (Kivy): draws :mod:`companion.games.occulites.model`
and forwards touches to it (no rule and no table logic here).

Left: the six cards of the round above one row per player (name, points, Tribe and what they
are doing; then the six dice of the line-up, in the cards' columns). Right: what to do now, by
phase: choose Tribes (or draft dice), enter or read line-ups, step through the six cards, Share
Knowledge, the final scores. See docs/app-occulites.md.

Every widget is made once: a redraw (after a call, a settled camera view, a timer cue) only
changes texts, colours and what is enabled, so a finger on a button never loses it. Each
phase's controls are a panel built the first time the phase comes and shown while it lasts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.core.text.markup import MarkupLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.markup import markup
from companion.games.occulites.adapter import LineupRead, roll_zones
from companion.games.occulites.look import (
    CARDS,
    DIE_RGBA,
    GAP,
    HEADER_W,
    LIT_HEADER,
    ROW,
    SIDE_MIN,
    SIDE_SHARE,
    Outlined,
    die_colour,
    grid,
    primary,
    stack,
)
from companion.games.occulites.model import OcculitesModel
from companion.games.occulites.view import Button, OcculitesView
from companion.games.table import TableScreen, lines_label
from companion.session import TableSession
from companion.widgets import w as _w
from rules import Event
from rules.occulites import COLOURS, POOL, TRIBE_NAMES, TRIBES, OcculitesGame
from vision import Reading


class PlayerRow(BoxLayout):
    """One player: a header (name, points, Tribe, what they are doing; tap it to act for this
    player) and six dice."""

    def __init__(self, screen: OcculitesScreen, seat: int, player: str) -> None:
        super().__init__(spacing=GAP)
        app = screen.host
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.header = _w("TButton", background_color=self.colour,
                         color=theme.text_on(self.colour), size_hint_x=None, width=HEADER_W,
                         font_size=app.fs(16), shorten=False, markup=True,
                         on_release=lambda *_: screen.tap_player(player))
        self.header.fit_font = False  # each of its lines is fitted on its own (lined_up)
        self.add_widget(self.header)
        self.slots: list[Any] = []
        self.outlines: list[Outlined] = []
        for i in range(CARDS):
            b = _w("TButton", text="", markup=True, font_size=app.fs(15), shorten=False,
                   on_release=lambda *_, i=i: screen.tap_slot(player, i))
            b.fit_font = False  # the screen sizes the dice's two lines (_fit_slots)
            o = Outlined(b)
            self.slots.append(b)
            self.outlines.append(o)
            self.add_widget(o)


#: How much larger than at the normal text size a header's points stay at the largest sizes.
GROWN = 1.35


def _size_of(text: str, font_size: float = 12.0) -> tuple[float, float]:
    """The size a markup text takes on one line a line (no wrapping)."""
    core = MarkupLabel(text=text, font_size=font_size)
    core.refresh()
    return (float(core.texture.size[0]), float(core.texture.size[1])) \
        if core.texture is not None else (0.0, 0.0)


def _fitted(text: str, wanted: float, width: float, height: float | None) -> float:
    """The largest font size up to ``wanted`` at which ``text`` fits ``width`` (and
    ``height``), never below half of it."""
    w, h = _size_of(text, wanted)
    scale = min(1.0, width / max(1.0, w), (height / max(1.0, h)) if height else 1.0)
    return max(wanted * 0.5, wanted * scale * 0.98)


def _sized(text: str, sizes: Sequence[float]) -> str:
    """Each line of a text at its own size (Kivy markup), line by line."""
    lines = text.split("\n")
    return "\n".join(f"[size={round(sizes[i])}]{line}[/size]" if i < len(sizes) and line
                     else line for i, line in enumerate(lines))


class OcculitesScreen(TableScreen):
    """One game of Dice of the Occulites at the table."""

    model: OcculitesModel

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[OcculitesGame] = session.typed(OcculitesGame)
        super().__init__(host, session, **kwargs)
        self.players: list[str] = list(session.game.setup.players)
        self.model = OcculitesModel(self.session, roll_zones(host.board_zones, self.players),
                                    correct_roll=host.correct_roll)
        self.controls: dict[str, Any] = {}  # each panel control by the model's key
        self.panels: dict[str, Any] = {}  # each phase's controls, made once
        self.shown_panel = ""
        self._logged_rounds: set[int] = set()  # rounds whose dice the roll log has
        # the dice's (number, colour name) sizes and the headers' (name, points, doing) sizes,
        # fitted to their room (_fit_slots)
        self._slot_sizes: tuple[float, ...] = (host.fs(22), host.fs(15))
        self._card_size = host.fs(12)
        self._header_sizes: tuple[float, ...] = (host.fs(16), host.fs(17), host.fs(13))
        self._header_fits: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._build()

    def wants_camera(self) -> bool:
        return True

    @property
    def game(self) -> OcculitesGame:
        return self.session.game

    def _build(self) -> None:
        app = self.host
        root = _w("Panel", orientation="vertical", padding=6, spacing=6, bg=theme.BACKGROUND)
        self.timer_label = lines_label(app, 17, text="", size_hint_x=None, width=118,
                                       bold=True, color=theme.ACCENT)
        self.frame = GameFrame(app, extras=[self.timer_label], game=lambda: self.game)
        self.title_label = self.frame.title
        self.title_label.font_size = app.fs(17)
        self.title_label.shorten = False  # two lines rather than a cut
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        body = BoxLayout(spacing=8)
        left = BoxLayout(orientation="vertical", spacing=GAP)
        cards = BoxLayout(spacing=GAP, size_hint_y=None, height=64)
        cards.add_widget(Widget(size_hint_x=None, width=HEADER_W))
        self.card_labels: list[Any] = []
        self.card_inners: list[Any] = []
        self.card_outlines: list[Outlined] = []
        for _ in range(CARDS):
            label = lines_label(app, 12, text="", markup=True)
            label.fit_font = False  # the screen sizes the cards' words (_fit_cards)
            inner = _w("Panel", bg=theme.PANEL)
            inner.add_widget(label)
            o = Outlined(inner)
            self.card_inners.append(inner)
            self.card_labels.append(label)
            self.card_outlines.append(o)
            cards.add_widget(o)
        left.add_widget(cards)
        self.rows: dict[str, PlayerRow] = {}
        for seat, p in enumerate(self.players):
            row = PlayerRow(self, seat, p)
            self.rows[p] = row
            left.add_widget(row)
        body.add_widget(left)
        self._refit_slots = Clock.create_trigger(lambda dt: self._fit_slots(), -1)
        self.rows[self.players[0]].slots[0].bind(size=lambda *_: self._refit_slots())
        self.side = _w("Panel", orientation="vertical", size_hint_x=None, width=SIDE_MIN,
                       spacing=GAP, padding=4, bg=theme.PANEL)
        body.bind(width=lambda _, v: setattr(self.side, "width",
                                             max(SIDE_MIN, round(v * SIDE_SHARE))))
        self.message = _w("TLabel", text="", font_size=app.fs(15), halign="left",
                          valign="top", shorten=False, markup=True)
        self.side.add_widget(self.message)
        self.tools = BoxLayout(orientation="vertical", size_hint_y=None, height=0)
        self.side.add_widget(self.tools)
        body.add_widget(self.side)
        root.add_widget(body)
        self.add_widget(root)

    def _fit_slots(self) -> None:
        """One pair of text sizes for every die of the line-ups, rather than each die's own
        (a table of dice reads evenly): its colour's name as large as the widest name lets it
        be, its number (the pips) as large as the height left lets it be, up to the sizes
        asked for; then each player's header (:meth:`_fit_headers`)."""
        slot = self.rows[self.players[0]].slots[0]
        room_w, room_h = slot.width - 8, slot.height - 4
        colour = _fitted("orange", self.host.fs(15), room_w, None)
        line = _size_of(f"[size={round(colour)}]orange[/size]")[1]
        number = _fitted("[b]6?[/b]", self.host.fs(22), room_w, room_h - line)
        self._slot_sizes = (number, colour)
        for row in self.rows.values():
            for b in row.slots:
                b.font_size = colour
        self._fit_headers()
        self._fit_cards()
        self.draw()

    def _fit_headers(self, headers: Sequence[str] = ()) -> None:
        """The headers' three lines at their own sizes, the same in every header (the widest
        of ``headers``' lines, the headers' texts now, decides): the name as large as the
        header's width lets it be (a long name is the widest line), the points larger (they
        grow with the text size whatever the name's length), what the player does smaller;
        all three lines within its height."""
        header = self.rows[self.players[0]].header
        room_w, room_h = header.width - 10, header.height - 4
        fs = self.host.fs
        lines = [text.split("\n") for text in headers] or [[f"[b]{p}[/b]"] for p in self.players]

        def widest(i: int, default: str) -> str:
            found = [parts[i] for parts in lines if len(parts) > i and parts[i]]
            return max(found, key=lambda t: _size_of(t, 10)[0]) if found else default

        three = (widest(0, "[b]Ana[/b]"), widest(1, "888 points"),
                 widest(2, "Palaudis · lined up"))
        key = (*three, room_w, room_h)
        if key in self._header_fits:  # the same lines in the same room: sized already
            self._header_sizes = self._header_fits[key]
            return
        name = _fitted(three[0], fs(16), room_w, None)
        points = _fitted(three[1], fs(17), room_w, None)
        doing = _fitted(three[2], fs(13), room_w, None)
        sizes = [name, points, doing]
        normal = fs(1) / self.host.settings.font_scale  # a pixel at the normal text size
        # too tall (five players at the largest text): what the player does gives way first,
        # then the points down to GROWN of their normal size (a number: they grow), then the
        # name down to its normal size (a 16-letter name is as wide as the header already)
        least = [min(name, 16 * normal), min(points, GROWN * 17 * normal),
                 max(10.0, doing * 0.6)]

        def high() -> float:  # the three lines as the header draws them
            text = _sized("\n".join(three), sizes)
            return _size_of(text, min(sizes))[1]

        for line in (2, 1, 0):
            while high() > room_h and sizes[line] > least[line]:
                sizes[line] = max(least[line], sizes[line] * 0.95)
        self._header_sizes = self._header_fits[key] = tuple(sizes)
        for row in self.rows.values():  # Kivy spaces the lines by the smallest at least
            row.header.font_size = min(self._header_sizes)

    def _fit_cards(self) -> None:
        """The cards' words (colour, Tribe, outcome) at one size, the largest at which the
        widest of them fits a card's width, up to the size asked for; each card's number is
        sized as it is drawn, as large as the lines under it leave room for."""
        width = self.rows[self.players[0]].slots[0].width  # a card is as wide as a die
        wide = max(("purple", "Predator", "[b]+6 alone[/b]", "[b]+6 each[/b]", "[b]nobody[/b]"),
                   key=lambda t: _size_of(t, 12)[0])
        self._card_size = _fitted(wide, self.host.fs(12), width - 4, None)
        for one in self.card_labels:
            one.font_size = self._card_size

    def _button(self, text: str, action: Callable[[], object], *, size: float = 15,
                colour: str | None = None, **kwargs: Any) -> Any:
        """A panel button (drawn in a die's colour when ``colour`` is given)."""
        if colour is not None:
            bg = die_colour(colour)
            kwargs.update(background_color=bg, color=theme.text_on(bg))
        kwargs.setdefault("shorten", False)
        return _w("TButton", text=text, font_size=self.host.fs(size),
                  on_release=lambda *_: action(), **kwargs)

    def _colour_grid(self, action: Callable[[str], object], size: float = 15
                     ) -> tuple[GridLayout, dict[str, Any]]:
        """The nine dice colours, 3 by 3, always in the same places."""
        cells = grid(3, 3)
        buttons: dict[str, Any] = {}
        for c in COLOURS:
            b = self._button(c, partial(action, c), size=size, colour=c)
            buttons[c] = b
            cells.add_widget(b)
        return cells, buttons

    def _show_panel(self, name: str) -> None:
        """The controls of a phase: made the first time, then only shown again."""
        if name == self.shown_panel:
            return
        panel = self.panels.get(name)
        if panel is None:
            makers = {"tribes": self._make_tribes, "draft": self._make_draft,
                      "allocate": self._make_allocate, "resolving": self._make_resolving,
                      "share": self._make_share, "over": self._make_over}
            panel = self.panels[name] = makers[name]()
        self.tools.clear_widgets()
        self.tools.add_widget(panel)
        self.tools.height = panel.height
        self.shown_panel = name

    def _make_tribes(self) -> Any:
        cells = grid(2, (len(TRIBE_NAMES) + 1) // 2)
        self.tribe_buttons: dict[str, Any] = {}
        for t in TRIBE_NAMES:
            colour = TRIBES[t].colour
            b = self._button(f"{t}\n{colour}", partial(self.choose_tribe, t), size=14,
                             colour=colour)
            self.tribe_buttons[t] = self.controls[f"tribe:{t}"] = b
            cells.add_widget(b)
        return stack(cells)

    def _make_draft(self) -> Any:
        cells, self.take_colour_buttons = self._colour_grid(self.take_die, size=14)
        self.controls |= {f"take:{c}": b for c, b in self.take_colour_buttons.items()}
        return stack(cells)

    def _make_allocate(self) -> Any:
        colours, self.colour_buttons = self._colour_grid(self.tap_colour)
        self.controls |= {f"colour:{c}": b for c, b in self.colour_buttons.items()}
        pips = grid(4, 2)
        self.pip_buttons: list[Any] = []
        for n in range(1, 7):
            b = self._button(str(n), partial(self.tap_pips, n), size=22, bold=True,
                             background_color=theme.COUNT, color=(0, 0, 0, 1))
            self.pip_buttons.append(b)
            self.controls[f"pips:{n}"] = b
            pips.add_widget(b)
        self.confirm_button = self._button("OK", self.confirm, size=16)
        self.clear_button = self._button("Clear", self.clear_selection, size=16)
        pips.add_widget(self.confirm_button)
        pips.add_widget(self.clear_button)
        actions = BoxLayout(spacing=GAP, size_hint_y=None, height=ROW)
        self.read_button = self._button("Camera", self.read_camera, size=16)
        self.roll_button = self._button("Timer", self.roll, size=16)
        self.reveal_button = self._button("Reveal", self.reveal, size=18, bold=True)
        for b in (self.read_button, self.roll_button, self.reveal_button):
            actions.add_widget(b)
        self.controls |= {"confirm": self.confirm_button, "clear": self.clear_button,
                          "roll": self.roll_button, "reveal": self.reveal_button}
        return stack(colours, pips, actions)

    def _make_resolving(self) -> Any:
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=56)
        self.back_button = self._button("<", lambda: self.step(-1), size=20,
                                        size_hint_x=None, width=64)
        self.next_button = self._button("", lambda: self.step(1), size=19, bold=True)
        row.add_widget(self.back_button)
        row.add_widget(self.next_button)
        self.controls |= {"back": self.back_button, "next": self.next_button}
        return stack(row)

    def _make_share(self) -> Any:
        self.share_colours, self.share_colour_buttons = self._colour_grid(self.tap_share_colour)
        self.controls |= {f"share:{c}": b for c, b in self.share_colour_buttons.items()}
        self.sources = grid(2, 3)
        self.source_buttons: dict[str, Any] = {}
        for source in (POOL, *self.players):
            text = "the pool" if source == POOL else source
            b = self._button(text, partial(self.choose_source, source), size=14)
            self.source_buttons[source] = self.controls[f"source:{source}"] = b
            self.sources.add_widget(b)
        self.share_body = BoxLayout(size_hint_y=None, height=self.sources.height)
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=ROW)
        self.share_back = self._button("Back", self.share_back_step, size=16)
        self.pass_button = self._button("Pass", self.pass_share, size=18, bold=True)
        row.add_widget(self.share_back)
        row.add_widget(self.pass_button)
        self.controls |= {"share-back": self.share_back, "pass": self.pass_button}
        return stack(self.share_body, row)

    def _make_over(self) -> Any:
        self.finish_button = self._button("Finish", self.host.end_game, size=22, bold=True)
        primary(self.finish_button, True)
        bgstats = self._button("BG Stats", self.frame.show_play_code, size=18)
        self.controls |= {"finish": self.finish_button, "bgstats": bgstats}
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=56)
        row.add_widget(bgstats)
        row.add_widget(self.finish_button)
        return stack(row)

    # -- from the session ---------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Redraw after a call, an undo or a redo (the model has read the change: its host
        handed it over first)."""
        self.draw()

    # -- drawing (in place) -------------------------------------------------------------------

    def draw(self) -> None:
        view = self.model.view()
        self.title_label.text = view.title
        self.frame.refresh()
        self._draw_cards(view)
        self._draw_rows(view)
        self.timer_label.text = view.timer
        self._show_panel(view.panel)
        if view.panel == "share":
            shown = self.share_colours if view.share_colours else self.sources
            if shown.parent is not self.share_body:
                self.share_body.clear_widgets()
                self.share_body.add_widget(shown)
        for key, button in view.controls.items():
            self._apply(key, button)
        message = markup(view.message)
        if self.message.text != message:
            self.message.text = message

    def _apply(self, key: str, view: Button) -> None:
        """A panel control as the model shows it."""
        b = self.controls.get(key)
        if b is None:
            return
        if view.text:
            b.text = view.text
        kind = key.split(":", 1)[0]
        if kind in ("reveal", "next", "pass", "finish"):
            primary(b, view.enabled and view.main)
            return
        b.disabled = not view.enabled
        if kind in ("tribe", "take"):
            b.opacity = 0.35 if b.disabled else 1
        elif kind in ("colour", "share", "source"):
            b.opacity = 0.3 if b.disabled else 1
        elif kind == "roll":
            b.background_color = theme.SELECT if view.selected else theme.BUTTON

    def _draw_cards(self, view: OcculitesView) -> None:
        per_px = _size_of("[size=100]Xg[/size]")[1] / 100  # a line's height a pixel of size
        for i, card in enumerate(view.cards):
            label, outline = self.card_labels[i], self.card_outlines[i]
            text = markup(card.text)
            first, _, rest = text.partition("\n")  # its number first: the points
            if rest:
                under = rest.count("\n") + 1
                room = label.height - 2
                # the words at the cards' size, smaller where this card has more lines than
                # its height holds (a Creature's outcome); its number as large as is left
                base = min(self._card_size, room / ((under + 1) * per_px))
                number = max(base, _fitted(first, self.host.fs(20), label.width - 4,
                                           room - under * base * per_px))
                label.font_size = base
                label.text = f"[size={round(number)}]{first}[/size]\n{rest}"
            else:
                label.text = text
            bg = die_colour(card.colour) if card.colour else theme.PANEL
            self.card_inners[i].bg = list(bg)
            if card.colour:
                label.color = theme.text_on(bg)
            outline.light(theme.ACCENT if card.lit else None)

    def _draw_rows(self, view: OcculitesView) -> None:
        frames = {"selected": theme.TEXT, "check": theme.DANGER, "won": theme.ACCENT}
        headers = {r.player: markup(r.header) for r in view.rows}
        self._fit_headers(list(headers.values()))
        for r in view.rows:
            row = self.rows[r.player]
            row.header.text = _sized(headers[r.player], self._header_sizes)
            bg = LIT_HEADER if r.lit else row.colour
            row.header.background_color = bg
            row.header.color = theme.text_on(bg)
            for b, o, slot in zip(row.slots, row.outlines, r.slots, strict=True):
                bg = die_colour(slot.colour)
                b.background_color = bg
                b.color = theme.text_on(bg)
                b.text = _sized(markup(slot.text), self._slot_sizes)
                o.light(frames.get(slot.frame))

    # -- touches, forwarded ---------------------------------------------------------------------

    def tap_player(self, player: str) -> None:
        self.act(lambda: self.model.tap_player(player))

    def choose_tribe(self, tribe: str) -> None:
        self.act(lambda: self.model.choose_tribe(tribe))

    def take_die(self, colour: str) -> None:
        self.act(lambda: self.model.take_die(colour))

    def tap_slot(self, player: str, index: int) -> None:
        self.act(lambda: self.model.tap_slot(player, index))

    def clear_selection(self) -> None:
        self.act(self.model.clear_selection)

    def tap_colour(self, colour: str) -> None:
        self.act(lambda: self.model.tap_colour(colour))

    def tap_pips(self, pips: int) -> None:
        self.act(lambda: self.model.tap_pips(pips))

    def confirm(self) -> None:
        self.act(self.model.confirm)

    def tap_share_colour(self, colour: str) -> None:
        self.act(lambda: self.model.tap_share_colour(colour))

    def choose_source(self, source: str) -> None:
        self.act(lambda: self.model.choose_source(source))

    def share_back_step(self) -> None:
        self.act(self.model.share_back_step)

    def pass_share(self) -> None:
        self.act(self.model.pass_share)

    def step(self, delta: int) -> None:
        self.act(lambda: self.model.step(delta))

    def reveal(self) -> None:
        self.act(self.model.reveal)

    # -- camera -------------------------------------------------------------------------------

    def on_settled(self, reading: Reading) -> None:
        """The app's camera feed saw the dice lie still (main thread): line-ups are laid out
        by hand, so any settled view counts, not only rolls. Not used as line-ups by itself:
        during allocation the dice settle after the roll too, before they are lined up. It only
        tells the players the camera is ready; Camera reads the tray. Only the words change:
        no button moves or is made again under a finger."""
        if self.model.on_settled(reading):
            self.draw()

    def camera_reading(self) -> tuple[Reading | None, str]:
        """The tray as the camera sees it now: (reading or None, why not)."""
        camera = self.host.camera
        if camera is None:
            return None, "No camera: choose one in Settings, or enter the line-ups by touch."
        if not camera.rolls_count:
            return None, (f"The picture is {camera.label}, not your table: enter the "
                          "line-ups by touch, or connect a camera.")
        snap = camera.latest()
        if snap is None:
            error = camera.error
            return None, (f"Camera: {error}" if error else
                          "The camera is starting: tap Camera again in a moment.")
        if snap.moving:
            return None, "The dice are still moving: tap Camera when they are still."
        return snap.reading, ""

    def read_camera(self) -> None:
        """Read every line-up on the tray from the camera."""
        reading, why = self.camera_reading()
        if reading is None:
            self.model.notice = why
            self.draw()
            return
        round_no = self.game.state.round
        reads = self.apply_reading(reading)
        # The round's dice, as rolled and lined up, go to the roll log once: the first time
        # every line-up is read whole (six dice in each zone, nothing wrong there). A
        # reading before the dice are lined up is not the roll; a second reading of the same
        # round (a die put right) is the same roll.
        whole = bool(reads) and all(len(r.slots) == CARDS and not r.problems
                                    for r in reads.values())
        if whole and round_no not in self._logged_rounds:
            self._logged_rounds.add(round_no)
            self.host.took_roll(reading)

    def apply_reading(self, reading: Reading) -> dict[str, LineupRead]:
        """Use a camera reading (see the model): sure line-ups become calls at once; the
        screen draws once, after (:meth:`TableScreen.act`)."""
        reads: dict[str, LineupRead] = {}
        self.act(lambda: reads.update(self.model.apply_reading(reading)))
        return reads

    # -- timer --------------------------------------------------------------------------------

    def roll(self) -> None:
        """The dice are rolled: the round clock counts from now."""
        self._play(self.model.roll())
        self.draw()

    def tick(self) -> None:
        fired = len(self.model.fired)
        self._play(self.model.tick())
        if len(self.model.fired) != fired:  # a cue was said
            self.draw()
        else:
            self.timer_label.text = self.model.timer_text()

    def _play(self, names: Sequence[str]) -> None:
        """Each cue's sound: ``occulites_<name>`` from the soundtrack folder, else the
        built-in "hit"."""
        for name in names:
            if not self.host.sound(f"occulites_{name}"):
                self.host.sound("hit")

    def say(self, text: str) -> None:
        self.model.notice = text
        self.draw()


__all__ = ["DIE_RGBA", "OcculitesScreen"]
