"""The game at the table (docs/app.md): started, resumed after a power cut, restarted with
other options, ended; brought to the screens and taken off them; ticked by the app's clock;
every change of its session followed by the music, the game's own table, the seat lights and
the app's listeners, in that order.

A service of the app: it is given the journal, the clock, the game's narrow host, the screens
shown, the music, the camera and the seat buttons, and how to show a screen and to tell the
app's listeners. It knows no screen of the app's own but the start page it reports to.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.contract import GamePlugin, Host, StartPage, TableGame
from companion.games import plugins
from companion.journal import Journal
from companion.services import plays
from companion.services.camera import CameraService
from companion.services.music import Music
from companion.services.seats import SeatButtons
from companion.services.shown import Shown
from companion.session import (
    NOT_SAVED,
    Change,
    MonotonicClock,
    SessionChange,
    TableSession,
    not_saved,
)
from hardware.buttons import ButtonEvent
from rules import Ending, Event, RulesError, Setup

log = logging.getLogger(__name__)

#: Runs a function every so many seconds on the main thread; returns what cancels it
#: (Kivy's ``Clock.schedule_interval``, given by the app).
Every = Callable[[Callable[[float], None], float], Any]


class GameRunner:
    """The session on the table (``session``: None with no game on), its
    :class:`~companion.contract.TableGame` (``table``) and its plugin (``plugin``)."""

    def __init__(self, *, journal: Journal, clock: MonotonicClock, tick_seconds: float,
                 host: Host, shown: Shown, show: Callable[[str], None], music: Music,
                 cameras: CameraService, buttons: SeatButtons,
                 announce: Callable[[SessionChange], None], every: Every) -> None:
        self.journal = journal
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.host = host
        self.shown = shown
        self.show = show
        self.music = music
        self.cameras = cameras
        self.buttons = buttons
        self.announce = announce
        self.every = every
        self.session: TableSession[Any] | None = None
        self.table: TableGame | None = None
        self.plugin: GamePlugin | None = None
        self.last_events: Sequence[Event] = ()  # what the last call did (for the log, tests)
        self._ticker: Any = None

    def _start_page(self) -> StartPage | None:
        start = self.shown.screens.get("start")
        return start if isinstance(start, StartPage) else None

    # -- a game comes, goes -------------------------------------------------------------------

    def start(self, setup: Setup, soundtrack: str = "none") -> TableSession[Any]:
        """Start a new game. Raises :class:`rules.RulesError` for a setup the engine refuses."""
        if setup.game not in plugins():
            raise RulesError(f"the game {setup.game!r} has no table screen here")
        session = TableSession.new(self.journal, setup, title=", ".join(setup.players),
                                   clock=self.clock)
        self.music.soundtrack = soundtrack
        self.attach(session)
        return session

    def resume(self, game_id: int) -> TableSession[Any] | None:
        """Bring a journaled game back; one that cannot be replayed is marked so (never
        offered again) and the start screen says why."""
        from companion.journal import JournalError

        try:
            session = TableSession.resume(self.journal, game_id, clock=self.clock)
            if session.game.name not in plugins():
                raise RulesError(f"the game {session.game.name!r} has no table screen here")
        except (JournalError, RulesError) as e:
            told = plays.set_aside(self.journal, game_id, e)
            start = self._start_page()
            if start is not None:
                start.refresh_resume()
                start.show_notice([told])
            return None
        except NOT_SAVED as e:  # the journal cannot be read now (a failing card)
            start = self._start_page()
            if start is not None:
                start.show_notice([f"Game {game_id} cannot be resumed now: "
                                   f"{not_saved(e, self.journal)}"])
            return None
        self.music.soundtrack = "none"
        self.attach(session)
        return session

    def restart(self, options: Mapping[str, Any]) -> TableGame | None:
        """The same game again with other options, before its first call (same players and
        seed); the empty game is closed so it is not offered for resume."""
        session = self.session
        if session is None or session.game.history:
            return None
        old = session.game.setup
        try:
            self.start(Setup(old.game, old.players, dict(options), old.seed),
                       soundtrack=self.music.soundtrack)
        except RulesError as e:
            if self.table is not None:
                self.table.say(str(e))
            return None
        try:
            self.journal.finish(session.game_id)
        except NOT_SAVED as e:
            log.warning("companion: the empty game %s stays in Resume: %s", session.game_id, e)
        return self.table

    def attach(self, session: TableSession[Any], *, pause: bool = True) -> None:
        """The game comes to the table (told to the listeners: ``GAME_ON``), or the one on
        is drawn again (new sizes, colours or parry window: nothing is told)."""
        again = session is self.session
        self.detach(pause=pause, leaving=not again)
        plugin = plugins()[session.game.name]
        self.session = session
        self.plugin = plugin
        table = plugin.make(self.host, session)  # a narrow host, not the app
        self.table = table
        session.subscribe(self.on_session)
        for screen in table.screens:
            self.shown.add(screen)
        self.music.set_music()
        self.sync_camera()
        self.update_leds()
        self.show(table.screens[0].name)
        self._ticker = self.every(self.tick, self.tick_seconds)
        if not again:
            self.announce(SessionChange(Change.GAME_ON))

    def detach(self, *, pause: bool = True, leaving: bool = True) -> None:
        """The game leaves the table (``leaving``: told to the listeners, ``GAME_OFF``)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        left = leaving and self.session is not None
        if self.session is not None:
            if pause:
                self.session.pause_clock()
            self.session.unsubscribe(self.on_session)
        if self.table is not None:
            self.table.close()
            self.shown.remove(self.table.screens)
        self.music.sounds.stop_music()
        self.session = None
        self.table = None
        self.plugin = None
        self.sync_camera()
        if left:
            self.announce(SessionChange(Change.GAME_OFF))

    def play_link(self) -> str | None:
        """The BG Stats link of the game being played, once it is over (its play summarised
        from the journal, as the history exports it)."""
        session = self.session
        if session is None or not session.game.is_over:
            return None
        return plays.play_link(self.journal, session.game_id)

    def end(self, ending: Ending | None = None) -> str | None:
        """Leave the game (see :meth:`companion.contract.Host.end_game`): ended by the players
        with ``ending`` (its BG Stats link returned), forgotten when it has no call,
        otherwise kept for resume."""
        session = self.session
        link: str | None = None
        if session is not None:
            try:
                if ending is not None and not session.game.is_over:
                    self.journal.finish(session.game_id, ending=ending)
                    link = plays.play_link(self.journal, session.game_id)
                else:
                    self.journal.discard_empty(session.game_id)
            except NOT_SAVED as e:  # a read-only or full card: the game stays as it was
                log.warning("companion: game %s could not be ended: %s", session.game_id,
                            not_saved(e, self.journal))
        self.detach()
        self.update_leds()
        self.show("start")
        self.shown.start_page().on_pre_enter()
        return link

    # -- while it is on ---------------------------------------------------------------------

    def tick(self, dt: float) -> None:
        """The app's clock ticked (``tick_seconds``): the round clock, the game, the camera
        and the seat lights follow."""
        if self.session is not None and self.table is not None:
            self.session.tick()
            self.table.on_tick()
            self.sync_camera()
            self._say_camera_ended()
            self.update_leds()

    def _say_camera_ended(self) -> None:
        """A replayed folder or video has shown its last picture: the game says so once,
        instead of waiting in silence for a roll that cannot come."""
        if self.session is not None and self.table is not None and self.table.wants_camera():
            ended = self.cameras.ended_news()
            if ended:
                self.session.refuse(ended)

    def on_session(self, change: SessionChange) -> None:
        """Listener of the session: the music follows the round clock, then the game redraws,
        then the app's listeners are told."""
        if change.kind is Change.CALL:
            self.last_events = change.events
        self.music.follow(change)
        if self.table is not None:
            self.table.on_session(change)
        if change.game_changed and self.session is not None \
                and not self.session.clock.running:
            self.music.sounds.stop_music()
        self.update_leds()
        self.announce(change)

    def sync_camera(self) -> None:
        """The camera follows the game: running while it reads dice, told whose roll it
        expects now."""
        game = self.session.game if self.session is not None else None
        prompt = game.prompt() if game is not None else None
        self.cameras.follow(self.table is not None and self.table.wants_camera(),
                            prompt.rollers if prompt is not None and prompt.roll else None,
                            len(game.history) if game is not None else 0)

    def on_button(self, event: ButtonEvent) -> None:
        """Main thread: a button reaches the game that uses them; a game that does not says
        so on its screen."""
        table, plugin = self.table, self.plugin
        if table is None or plugin is None:
            return
        if plugin.buttons.used:
            table.on_button(event, self.buttons.seats)
        else:
            table.say(plugin.buttons.note)

    def update_leds(self) -> None:
        """Seat lights follow the game (lit while a seat may parry...)."""
        self.buttons.show(self.table.lights() if self.table is not None else ())
