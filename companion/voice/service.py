"""The app's listening service: the microphone on a thread of its own, heard calls handed to the
game at the table on the app's thread.

The composition root (:mod:`companion.compose`) makes one when the app starts and gives it the
speaker's timeline (:class:`~hardware.audio.played.Played`) and a way to run work on the app's
thread (Kivy's ``Clock.schedule_once``). It listens while a game that takes calls said aloud is
at the table (its plugin's :class:`~companion.contract.VoiceUse`), Voice calls are not off in
Settings, and a microphone is found; it hears through :class:`~companion.voice.listener.Listener`
and gives each phrase, read against the game as it stands (:func:`read_heard`), to the app
(:meth:`~companion.contract.AppHost.hear_call`), which gives it to the table like a tapped call.
No Kivy here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.session import Change, SessionChange
from companion.voice.phrases import GameVoice, Heard, HeardCall, Vocabulary, read_heard
from hardware.audio.played import Played

if TYPE_CHECKING:
    from companion.contract import AppHost
    from companion.settings import Settings
    from hardware.microphone import Microphone

log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]


@dataclass(frozen=True)
class MicrophoneStatus:
    """Which microphone voice calls would use, in a few words (Settings' heading line) and
    in full (the doctor); ``found`` False when none is."""

    found: bool
    words: str
    detail: str = ""


def microphone_status(settings: Settings, config: dict[str, Any]) -> MicrophoneStatus:
    """What Settings and the doctor say of the microphone: off, which one and why, or that
    none is found (voice calls are then off)."""
    from hardware.errors import HardwareError
    from hardware.microphone import choose, find_microphone

    if settings.voice_calls == "off":
        return MicrophoneStatus(False, "Voice calls are off", "voice calls are off (Settings)")
    try:
        choice = choose(None, config, setting=settings.microphone or None)
    except HardwareError as e:
        return MicrophoneStatus(False, "Microphone unknown: voice calls are off", str(e))
    if choice.kind == "none":
        return MicrophoneStatus(False, "No microphone: voice calls are off",
                                f"no microphone (from {choice.origin})")
    if choice.kind == "auto":
        found = find_microphone()
        if not found.spec:
            return MicrophoneStatus(False, "No microphone found: voice calls are off",
                                    f"no microphone found: {found.why}")
        return MicrophoneStatus(True, "Voice calls on", f"auto finds {found.label}")
    return MicrophoneStatus(True, "Voice calls on",
                            f"microphone {choice.spec!r} (from {choice.origin})")


class ListeningService:
    """Listens for the game at the table (see the module docstring)."""

    def __init__(self, host: AppHost, played: Played, post: Post, *,
                 open_microphone: Callable[[Settings, dict[str, Any]], Microphone | None]
                 | None = None) -> None:
        self.host = host
        self.played = played
        self.post = post
        self._open = open_microphone or _open_for
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._vocabulary: Vocabulary | None = None
        self._voice: GameVoice | None = None
        self._mic: Microphone | None = None
        self._vocab_due = False
        #: What the listener does now, in words (the log, tests).
        self.status = "not listening: no game at the table"
        #: Every heard call handed to the table (tests, the log).
        self.handed: list[HeardCall] = []
        host.listen(self.on_change)
        host.add_stop_listener(self.close)

    # -- the app's changes (its thread) -------------------------------------------------------

    def on_change(self, change: SessionChange) -> None:
        if change.kind is Change.GAME_ON:
            self.restart()
        elif change.kind is Change.GAME_OFF:
            self.stop("not listening: no game at the table")
        elif change.game_changed:
            self._vocabulary_soon()

    def restart(self) -> None:
        """Listen (again) for the game at the table, with the settings as they are now."""
        self.stop("not listening")
        session = self.host.session
        if session is None:
            return
        from companion.games import plugins

        plugin = plugins().get(session.game.name)
        use = plugin.voice if plugin is not None else None
        if use is None or use.make is None:
            self.status = f"not listening: {use.note if use is not None else 'no voice'}"
            return
        settings = self.host.settings
        if settings.voice_calls == "off":
            self.status = "not listening: voice calls are off in Settings"
            return
        from hardware.errors import HardwareError

        try:
            mic = self._open(settings, self.host.config_file)
        except HardwareError as e:
            self.status = f"not listening: {e}"
            log.warning("voice: %s", self.status)
            return
        if mic is None:
            self.status = "not listening: no microphone found"
            return
        self._voice = use.make(session.game)
        self._vocabulary = self._voice.vocabulary()
        self._mic = mic
        self._stop = threading.Event()
        from companion.settings import VOICE_SENSITIVITY

        sensitivity = VOICE_SENSITIVITY.get(settings.voice_sensitivity, 0.5)
        self._thread = threading.Thread(target=self._run, args=(mic, self._stop, sensitivity),
                                        name="voice-listener", daemon=True)
        self.status = f"listening: {mic.label}"
        self._thread.start()

    def stop(self, status: str = "not listening") -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5.0)
        mic, self._mic = self._mic, None
        if mic is not None:
            mic.close()
        self._voice = None
        self.status = status

    def close(self) -> None:
        self.stop("closed")

    @property
    def listening(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _vocabulary_soon(self) -> None:
        """The game changed: its phrases again, once the screen has been drawn."""
        if self._voice is None or self._vocab_due:
            return
        self._vocab_due = True

        def update() -> None:
            self._vocab_due = False
            if self._voice is not None:
                vocabulary = self._voice.vocabulary()
                with self._lock:
                    self._vocabulary = vocabulary
        self.post(update)

    # -- the listening thread ----------------------------------------------------------------

    def _run(self, mic: Microphone, stop: threading.Event, sensitivity: float) -> None:
        from companion.voice.listener import Listener
        from companion.voice.recogniser import Recogniser

        try:
            listener = Listener(Recogniser(sensitivity), played=self.played,
                                sensitivity=sensitivity)
            while not stop.is_set():
                with self._lock:
                    vocabulary = self._vocabulary
                if vocabulary is not None:
                    listener.use(vocabulary)
                block = mic.read(0.2)
                if block is None:  # a recording has ended
                    self.status = "not listening: the recording has ended"
                    return
                for heard in listener.hear(block):
                    self.post(lambda h=heard: self._deliver(h))  # type: ignore[misc]
        except Exception as e:  # a microphone pulled out, a library that failed: say it
            self.status = f"not listening: {type(e).__name__}: {e}"
            log.warning("voice: listening stopped: %s", self.status)

    # -- the app's thread again ----------------------------------------------------------------

    def _deliver(self, heard: Heard) -> None:
        session = self.host.session
        voice = self._voice
        if session is None or voice is None:
            return
        with self._lock:
            vocabulary = self._vocabulary
        if vocabulary is None:
            return
        call = read_heard(heard, voice.vocabulary(), session.game, voice,
                          session.clock.elapsed)
        if call is None:
            return
        log.info("voice: heard %r (%s, confidence %.2f)", call.said,
                 ", ".join(str(c) for c in call.calls) or call.refused or call.table,
                 call.confidence)
        self.handed.append(call)
        self.host.hear_call(call)


def _open_for(settings: Settings, config: dict[str, Any]) -> Microphone | None:
    from hardware.microphone import open_microphone

    return open_microphone(None, config, setting=settings.microphone or None)


__all__ = ["ListeningService", "MicrophoneStatus", "microphone_status"]
