"""The start screen: a new game (the game, its options, the players), started or resumed.

Its unfinished games (Resume, Drop, Undo drop) are :mod:`companion.screens.unfinished`.
Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

import rules
from companion import startcheck, theme
from companion.contract import AppHost
from companion.frame import dialog, wrapped
from companion.games import plugins
from companion.journal import GameRecord
from companion.screens.lists import fill_list
from companion.screens.notice import STARTED_WITH_A_PROBLEM, notice_view
from companion.screens.unfinished import UnfinishedGames
from companion.session import NOT_SAVED, not_saved
from companion.widgets import NAME_KEYS, fit_whole, fmt_clock, headline, w
from rules import Setup

MAX_PLAYERS = 6
DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
#: The longest player name the table's screens show whole at six players and the largest text
#: (the rules allow longer ones, e.g. in game files; the start screen asks for this many).
SCREEN_NAME_CHARS = startcheck.SCREEN_NAME_CHARS


def new_seed() -> int:
    """The seed of a new game (its shuffles and deals, rules.Setup.seed): from the clock, so
    each evening's games differ; the journal keeps it, so a game replays the same."""
    return int(time.time()) % 100_000


class StartScreen(UnfinishedGames, Screen):
    """A new game: the game, its options in words, the players (typed on the on-screen
    keyboard, or a recent group in one tap), characters or teams where the game has them; and
    every unfinished game, to resume or drop (asked first, and undoable for a while)."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="start", **kwargs)
        self.app = app
        self.count: int = 3
        root = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.BACKGROUND)
        # the top bar never changes shape: its buttons stay where a finger learned them
        top = BoxLayout(size_hint_y=None, height=52, spacing=6)
        top.add_widget(w("THeading", text="New game"))
        self.resume_button = w("TButton", text="Resume", size_hint_x=None, width=164,
                               on_release=lambda *_: self.show_unfinished())
        top.add_widget(self.resume_button)
        top.add_widget(w("TButton", text="History", size_hint_x=None, width=120,
                         on_release=lambda *_: app.show("history")))
        top.add_widget(w("TButton", text="Tournament", size_hint_x=None, width=166,
                         on_release=lambda *_: app.show("tournament")))
        top.add_widget(w("TButton", text="Settings", size_hint_x=None, width=120,
                         on_release=lambda *_: app.show("settings")))
        self.top_bar = top
        root.add_widget(top)
        body = BoxLayout(spacing=10)
        left = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.56)
        head = BoxLayout(size_hint_y=None, height=52, spacing=4)
        head.add_widget(w("THeading", text="Players", font_size=app.fs(20)))
        head.add_widget(w("TButton", text="-", size_hint_x=None, width=52, font_size=app.fs(24),
                          on_release=lambda *_: self.set_count(self.count - 1)))
        head.add_widget(w("TButton", text="+", size_hint_x=None, width=52, font_size=app.fs(24),
                          on_release=lambda *_: self.set_count(self.count + 1)))
        self.recent_button = w("TButton", text="Recent", size_hint_x=None, width=96,
                               on_release=lambda *_: self.show_recent())
        head.add_widget(self.recent_button)
        left.add_widget(head)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4)
        left.add_widget(self.rows_box)
        body.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.44)
        self.options_grid = GridLayout(cols=2, spacing=4, row_default_height=48,
                                       row_force_default=True, size_hint_y=None)
        self.game_spin = w("TSpinner", text="", values=[])
        # the settings' round length, until the players choose one (then as they chose it)
        self.timer_spin = w("TSpinner", text=fmt_clock(app.settings.round_seconds),
                            values=["1:00", "2:00", "3:00", "4:00", "5:00"])
        self.sound_spin = w("TSpinner", text="none", values=["none"])
        self.option_spins: dict[str, Any] = {}
        right.add_widget(self.options_grid)
        message_row = BoxLayout(orientation="vertical")
        # a message shows whole, at the text size where its box has the room, a little
        # smaller where it has not (a note such as "Every Eye for Themselves: 2 to 4 players"
        # stays one line with many option rows); one that does not fit even then is never cut
        # mid-sentence: its headline shows, whole, or a line saying where it is said in full
        # (problems that stop a game from starting are said whole in a dialog:
        # :meth:`say_problem`, again at each tap on Start)
        self.message = wrapped(app, "", 15, color=theme.DANGER, halign="center")
        self.message_line = wrapped(app, "", 15, color=theme.DANGER, halign="center")
        fit_whole(self.message, self.message_line, message_row, app.fs(15), self._shorter)
        right.add_widget(message_row)
        # Undo drop beside Start, as tall, while a dropped game can be taken back (the
        # message's room may be a line or two with many option rows)
        start_row = BoxLayout(size_hint_y=None, height=56, spacing=4)
        self.undo_drop_button = w("TButton", text="Undo drop", size_hint_x=None, width=0,
                                  opacity=0, disabled=True,
                                  on_release=lambda *_: self.undo_drop())
        start_row.add_widget(self.undo_drop_button)
        self.start_button = w("TBigButton", text="Start the game",
                              on_release=lambda *_: self.start())
        start_row.add_widget(self.start_button)
        right.add_widget(start_row)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        self.noticed = False  # the start-up notice has been shown (or is about to be)
        self.notice: ModalView | None = None  # the start-up notice, once shown
        self.notice_text: Any = None
        self.recent_view: ModalView | None = None
        self.confirm_view: ModalView | None = None
        self.names: list[Any] = []
        self.seated = False  # the last group has been seated (once, when the app starts)
        self.problem_view: ModalView | None = None
        self.warned = ""  # the look-alike names the players were asked about
        self._fitting = False  # the options' choices are being fitted to the count
        self.problem = ""  # the last problem said (cleared from the message once names change)
        self.char_spins: list[Any] = []
        self.team_spins: list[Any] = []
        self._game = ""
        self.game_spin.bind(text=lambda *_: self._game_chosen())

    # -- the game and its options ------------------------------------------------------------

    @property
    def game(self) -> str:
        """The short name of the game chosen (the spinner shows titles)."""
        return self._game

    def choose_game(self, name: str) -> None:
        plugin = plugins()[name]
        self.game_spin.text = plugin.title

    def _game_chosen(self) -> None:
        titles = {p.title: n for n, p in plugins().items()}
        name = titles.get(self.game_spin.text, "")
        if name and name != self._game:
            self._game = name
            self._build_options()
            self._choose_as_last_time()
            self.set_count(self.count)

    def _choose_as_last_time(self) -> None:
        """The options (and the round timer) of the newest game of the game chosen, as the
        players chose them for it last: after a game and after a restart alike (they are read
        from the journal's games; nothing is kept apart)."""
        last = self.app.journal.last_options(self._game)
        if last is None:
            return
        self._fitting = True  # the choices change here: the count is fitted once, after
        try:
            for option in plugins()[self._game].options:
                spin = self.option_spins.get(option.key)
                value = last.get(option.key)
                if spin is not None and any(v == value for v, _ in option.choices):
                    spin.text = option.words(value)
        finally:
            self._fitting = False
        seconds = last.get("round_seconds")
        if isinstance(seconds, int | float) and fmt_clock(seconds) in self.timer_spin.values:
            self.timer_spin.text = fmt_clock(seconds)

    def _build_options(self) -> None:
        """The options of the game chosen, in words; Timer and Music where rounds are timed."""
        grid = self.options_grid
        grid.clear_widgets()
        self.option_spins = {}
        rows: list[tuple[str, Any]] = [("Game", self.game_spin)]
        for option in plugins()[self._game].options:
            spin = w("TSpinner", text=option.choices[0][1], values=[c[1] for c in option.choices],
                     font_size=self.app.fs(16))
            spin.bind(text=lambda *_: None if self._fitting else self.set_count(self.count))
            self.option_spins[option.key] = spin
            rows.append((option.label, spin))
        if self._has_option("round_seconds"):
            rows += [("Timer", self.timer_spin), ("Music", self.sound_spin)]
        for label, widget in rows:
            grid.add_widget(w("TLabel", text=label, halign="right", size_hint_x=0.5,
                              font_size=self.app.fs(16)))
            grid.add_widget(widget)
        grid.height = len(rows) * 48 + (len(rows) - 1) * 4

    def choose(self, key: str, value: Any) -> None:
        """Set an option by its rules value (the spinner shows it in words)."""
        option = next(o for o in plugins()[self._game].options if o.key == key)
        self.option_spins[key].text = option.words(value)

    def choices(self) -> dict[str, Any]:
        """What is chosen on this screen (to build it again at another text size)."""
        return {"game": self._game, "names": [n.text for n in self.names],
                "chars": [s.text for s in self.char_spins],
                "teams": [s.text for s in self.team_spins],
                "options": {k: s.text for k, s in self.option_spins.items()},
                "timer": self.timer_spin.text, "sound": self.sound_spin.text,
                "noticed": self.noticed}

    def restore(self, chosen: dict[str, Any]) -> None:
        self.noticed = bool(chosen.get("noticed", self.noticed))
        self.seated = True  # the players seated before stay
        if chosen.get("game") in plugins():
            self.choose_game(chosen["game"])
        for key, words in chosen.get("options", {}).items():
            if key in self.option_spins:
                self.option_spins[key].text = words
        self.timer_spin.text = chosen.get("timer", self.timer_spin.text)
        self.sound_spin.text = chosen.get("sound", self.sound_spin.text)
        names = chosen.get("names") or []
        if names:
            self._seat_names(names)
        for spins, texts in ((self.char_spins, chosen.get("chars", [])),
                             (self.team_spins, chosen.get("teams", []))):
            for spin, text in zip(spins, texts, strict=False):
                spin.text = text

    def option_words(self, key: str) -> str:
        spin = self.option_spins.get(key)
        return str(spin.text) if spin is not None else ""

    @property
    def mode_spin(self) -> Any:
        return self.option_spins.get("mode")

    @property
    def rounds_spin(self) -> Any:
        return self.option_spins.get("rounds")

    @property
    def boards_spin(self) -> Any:
        return self.option_spins.get("track_allocation")

    # -- entering ------------------------------------------------------------------------------

    def on_pre_enter(self, *args: Any) -> None:
        games = plugins()
        self.game_spin.values = [p.title for p in games.values()]
        if self._game not in games:
            first = next(iter(games), "")
            if first:
                self.choose_game(first)
        self.sound_spin.values = ["none", *self.app.soundtracks()]
        self.refresh_resume()
        if not self.seated:  # the last group played here, once, as the app starts
            self.seated = True
            self._seat_names(self._last_group() or DEFAULT_NAMES[:self.count])
        if self.dropped is None and self.message.text != STARTED_WITH_A_PROBLEM:
            self.message.text = ""  # what was said before is old now
        if self.app.notices and not self.noticed:
            # what went wrong at start-up, once, in full, where there is room to read it
            self.noticed = True
            self.message.text = STARTED_WITH_A_PROBLEM
            Clock.schedule_once(lambda dt: self.show_notice(self.app.notices), 0)
        elif self.app.journal.readonly and not self.message.text:
            self.message.text = self.read_only_line()
            self.message.color = theme.DANGER

    def _shorter(self, text: str) -> list[str]:
        """A message too long for its box, shorter but whole (see __init__): a problem's
        headline and where it is said in full (Start says it again, in a dialog), else that
        alone; a note's headline."""
        head = headline(text)
        if text == self.problem:
            return ([f"{head}: tap Start to read why.", f"{head}."] if head else []) + [
                "Not started yet: tap Start to read why."]
        return [f"{head}."] if head else []

    def read_only_line(self) -> str:
        """What stays on the start screen while the journal takes no calls ("" when it does)."""
        if not self.app.journal.readonly:
            return ""
        return "Read-only: games can be viewed, no game can be started or played on"

    def show_notice(self, notices: Sequence[str]) -> None:
        """A dismissable notice over the start screen (a damaged file, a game that cannot be
        resumed)."""

        def closed() -> None:
            self.message.text = self.read_only_line()
            if self.message.text:
                self.message.color = theme.DANGER

        self.notice, self.notice_text = notice_view(self.app, notices, closed)
        self.notice.open(animation=False)

    # -- players -------------------------------------------------------------------------------

    def _last_group(self) -> tuple[str, ...]:
        groups = self.app.journal.recent_groups(1)
        return groups[0] if groups else ()

    def show_recent(self) -> None:
        """Recent groups of players, from the games played here: one tap seats them."""
        groups = self.app.journal.recent_groups()
        view = ModalView(size_hint=(0.8, 0.85), auto_dismiss=True)
        # a group of six long names takes two lines
        grid = GridLayout(cols=1, spacing=6, size_hint_y=None, row_default_height=76,
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        self.recent_buttons: list[Any] = []

        def seat(group: Sequence[str]) -> None:
            view.dismiss(animation=False)
            self._seat_names(group)

        for group in groups:
            b = w("TButton", text=", ".join(group), font_size=self.app.fs(17), shorten=False,
                  on_release=lambda *_, g=group: seat(g))
            self.recent_buttons.append(b)
            grid.add_widget(b)
        if not groups:
            grid.add_widget(w("TLabel", text="No games played here yet", color=theme.MUTED))
        fill_list(view, "Recent players", grid)
        self.recent_view = view
        view.open(animation=False)

    def _seat_names(self, names: Sequence[str]) -> None:
        """Seat these players (as many rows as the game allows)."""
        self.set_count(len(names))
        for row, name in zip(self.names, names, strict=False):
            row.text = name

    def set_count(self, count: int) -> None:
        game = self._game
        if not game:
            return
        cls = rules.game_class(game)
        count = max(cls.min_players, min(cls.max_players, MAX_PLAYERS, count))
        if count != self.count and self.dropped is None:
            self.message.text = ""  # an old message is not about these players
        note = self._fit_options(count)
        old = [n.text for n in self.names]
        left = [t for t in old[count:] if t.strip()]
        if len(old) > count and left and cls.max_players < len(old):
            note = (f"{cls.title} is for {cls.min_players} to {cls.max_players} players: "
                    f"{' and '.join(left)} {'is' if len(left) == 1 else 'are'} not seated.")
        old_chars = [s.text for s in self.char_spins]
        old_teams = [s.text for s in self.team_spins]
        self.count = count
        chars = self.characters()
        alliances = self.option_words("mode").startswith("Alliances") and self._has_option("teams")
        self.rows_box.clear_widgets()
        self.names, self.char_spins, self.team_spins = [], [], []
        short = list(chars.values())
        for i in range(count):
            row = BoxLayout(spacing=4, size_hint_y=None, height=52)
            row.add_widget(w("Panel", size_hint_x=None, width=12,
                             bg=theme.player_colour(self.app.settings.palette, i)))
            # with a team beside the character, the name keeps room for 16 characters
            name = w("TInput", text=old[i] if i < len(old) else DEFAULT_NAMES[i],
                     hint_text=f"player {i + 1}", size_hint_x=1.4 if alliances else 1,
                     keys=NAME_KEYS, max_chars=SCREEN_NAME_CHARS)
            if self.names:  # Enter goes on to the next name; on the last it ends typing
                self.names[-1].focus_next = name
            name.bind(text=lambda *_: self._names_changed())
            self.names.append(name)
            row.add_widget(name)
            if chars:
                spin = w("TSpinner", values=short, font_size=self.app.fs(16),
                         text=old_chars[i] if i < len(old_chars) else short[i % len(short)])
                self.char_spins.append(spin)
                row.add_widget(spin)
            if alliances:
                team = w("TSpinner", values=["Team 1", "Team 2", "Team 3"],
                         text=old_teams[i] if i < len(old_teams) else f"Team {i % 2 + 1}",
                         size_hint_x=0.6, font_size=self.app.fs(16))
                self.team_spins.append(team)
                row.add_widget(team)
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(Widget())  # rows stay at the top
        if note:  # in red when it stops the game from starting
            self.message.text = note
            self.message.color = theme.DANGER if self.count_problem(count) else theme.MUTED

    def _names_changed(self) -> None:
        """A name typed: a problem said about the names before is old now."""
        if self.message.text and self.message.text == self.problem:
            self.message.text = ""

    def _fit_options(self, count: int) -> str:
        """Offer only the choices that take ``count`` players (Every Eye for Themselves is
        for 2 to 4); a choice that does not is replaced by the first that does. Returns what
        to say about it ("" when nothing changed)."""
        said = ""
        self._fitting = True  # the choices change here: no set_count from their spinners
        try:
            said = self._fit_choices(count)
        finally:
            self._fitting = False
        return said

    def _fit_choices(self, count: int) -> str:
        said = ""
        for option in plugins()[self._game].options:
            spin = self.option_spins.get(option.key)
            if spin is None or not option.counts:
                continue
            # the choices that take them (all, when none does: the choice stays, and why
            # nothing can be played at this count is said)
            spin.values = startcheck.choices_for(option, count) or [w for _, w in option.choices]
            spin.text, note = startcheck.refit(option, spin.text, count)
            said = note or said
        return said

    def characters(self) -> dict[str, str]:
        """The chosen game's characters (id -> name), when it has any."""
        plugin = plugins().get(self._game)
        if plugin is None or plugin.characters is None:
            return {}
        return dict(plugin.characters())

    def _has_option(self, name: str) -> bool:
        cls = rules.game_class(self._game)
        return name in {f.name for f in fields(cls.Options)}

    # -- starting ------------------------------------------------------------------------------

    def build_setup(self) -> Setup:
        """The Setup these choices describe (the engine checks it when the game starts)."""
        game = self._game
        problem = self.setup_problem()
        if problem:
            raise rules.SetupError(problem)
        players = tuple(startcheck.tidy(n.text) for n in self.names)
        options: dict[str, Any] = {}
        for option in plugins()[game].options:
            options.update(option.options(self.option_words(option.key)))
        chars = {v: k for k, v in self.characters().items()}
        if self.char_spins and self._has_option("characters"):
            options["characters"] = [chars[s.text] for s in self.char_spins]
        teams = self.teams()
        if teams:
            options["teams"] = [teams[k] for k in sorted(teams)]
        if self._has_option("round_seconds"):
            seconds = self.app.soundtrack_length(self.sound_spin.text)
            if seconds is None:
                minutes, _, secs = self.timer_spin.text.partition(":")
                seconds = int(minutes) * 60 + int(secs)
            options["round_seconds"] = float(seconds)
        return Setup(game, players, options, new_seed())

    def start(self) -> None:
        """Start the game (unfinished games stay saved: Resume still offers them). When these
        players have an unfinished game of this game, ask first: resume it, or start anew."""
        if options_need_camera(self) and self.app.board_problem():
            self.say_problem(self.app.board_problem())
            return
        problem = self.setup_problem()
        if problem:
            self.say_problem(problem)
            return
        warned = self.name_warning()
        if warned and warned != self.warned:  # asked once: "Start anyway" starts
            self.warned = warned
            self.confirm_view = dialog(self.app, "Names that look alike", warned,
                                       [("Change the name", lambda: None),
                                        ("Start anyway", self.start)])
            return
        same = self.same_unfinished()
        if same is None:
            self._start()
            return

        def resume() -> None:
            self.app.resume_game(same.id)

        self.confirm_view = dialog(
            self.app, "Resume your unfinished game?",
            f"{self.describe(same)}\n\nThese players have not finished it. A new game "
            "leaves it in Resume.", [("Resume it", resume), ("New game", self._start)])

    def teams(self) -> dict[str, list[str]]:
        """The teams chosen beside the names (team -> its players); {} without teams."""
        teams: dict[str, list[str]] = {}
        if self.team_spins and self._has_option("teams"):
            for name, spin in zip(self.names, self.team_spins, strict=True):
                teams.setdefault(spin.text, []).append(startcheck.tidy(name.text))
        return teams

    def setup_problem(self) -> str | None:
        """What is wrong with the names or the teams chosen, in players' words (None:
        nothing)."""
        teams = self.teams()
        return startcheck.name_problem([n.text for n in self.names]) or self.count_problem(
            self.count) or (startcheck.team_problem(teams) if teams else None)

    def count_problem(self, count: int) -> str | None:
        """Why the game cannot be played by ``count`` players with any choice of an option
        (Eye for an Eye at 5: no mode takes them), None when it can."""
        found = (startcheck.none_fits(o, count) for o in plugins()[self._game].options)
        return next((said for said in found if said), None)

    def name_warning(self) -> str | None:
        """A name that looks like another seated one or a player of the games played here
        (:func:`companion.startcheck.name_warning`); a journal that cannot be read gives no
        known players, never an error."""
        try:
            known = [p for group in self.app.journal.recent_groups() for p in group]
        except Exception:  # a damaged journal: the seated names are still compared
            known = []
        return startcheck.name_warning([n.text for n in self.names], known)

    def same_unfinished(self) -> GameRecord | None:
        """The newest unfinished game of the chosen game with the players seated now."""
        seated = sorted(startcheck.tidy(n.text).casefold() for n in self.names)
        return next((r for r in self.app.journal.unfinished()
                     if r.setup.game == self._game
                     and sorted(p.casefold() for p in r.setup.players) == seated), None)

    def _start(self) -> None:
        try:
            self.app.start_game(self.build_setup(), soundtrack=self.sound_spin.text)
            self.message.text = ""
        except rules.RulesError as e:
            self.say_problem(str(e))
        except NOT_SAVED as e:  # a read-only or full card, another companion's journal
            self.say_problem(not_saved(e, self.app.journal))

    def say_problem(self, problem: str) -> None:
        """Why the game did not start: whole, in a dialog (at every text size), and in the
        message box above Start until something changes."""
        self.message.text, self.message.color = problem, theme.DANGER
        self.problem = problem
        self.problem_view = dialog(self.app, "Not started yet", problem, [("OK", lambda: None)],
                                   size=(0.8, 0.7))


def options_need_camera(screen: StartScreen) -> bool:
    """The options chosen have the camera fill the players' boards."""
    return screen.option_words("track_allocation") == startcheck.BOARDS_CAMERA


__all__ = ["DEFAULT_NAMES", "MAX_PLAYERS", "StartScreen", "options_need_camera"]
