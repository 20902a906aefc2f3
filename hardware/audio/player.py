"""Audio backends (Kivy's SDL2 mixer, or silence) and the round player that ties music to the clock.

Backends are chosen like camera sources: ``backend=`` argument, else ``COMPANION_AUDIO``
(``kivy`` or ``silent``), else ``[audio] backend``, else ``kivy``; an unknown name raises, and a
backend that cannot start falls back to ``silent`` with a warning saying why.

Pausing: Kivy's SDL2 sound has no pause and cannot seek, so :class:`KivyAudio` pauses every
mixer channel through SDL2_mixer itself (``Mix_Pause``/``Mix_Resume`` on the library bundled in
the Kivy wheel, which is the one Kivy plays through). Music and clock then stop and go together.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import time
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import msgspec
from msgspec import UNSET, UnsetType

from hardware.audio.clock import Clock, Cue, RoundClock
from hardware.audio.sounds import Soundtrack, audio_length, builtin_sound
from hardware.errors import ConfigError, HardwareError, SoundMissing
from hardware.schema import checked

if TYPE_CHECKING:  # numpy is imported only where the speaker's signal is rendered
    from hardware.audio.played import Played

log = logging.getLogger(__name__)

ENV_VAR = "COMPANION_AUDIO"
CUE_SOUNDS: dict[str, str] = {
    "start": "yarra_mark",
    "one_minute": "one_minute",
    "ten_seconds": "ten_seconds",
    "end": "yarra_bung",
}
#: The announcer's sounds: words, which the listener never takes for a call.
SPEECH_SOUNDS = frozenset(CUE_SOUNDS.values())


class AudioFallback(RuntimeWarning):
    """Warned when the chosen audio backend cannot start and silence is used instead."""


class Track(Protocol):
    """A loaded sound."""

    path: Path
    length: float

    def play(self) -> None: ...
    def stop(self) -> None: ...
    def set_volume(self, volume: float) -> None: ...
    def set_loop(self, loop: bool) -> None: ...
    @property
    def playing(self) -> bool: ...


class AudioBackend(Protocol):
    """Loads sounds and pauses/resumes everything at once."""

    name: str

    def load(self, path: str | Path) -> Track: ...
    def pause_all(self) -> bool: ...
    def resume_all(self) -> bool: ...
    def close(self) -> None: ...


# -- silence ---------------------------------------------------------------------------------


class SilentTrack:
    """A sound that plays nothing but keeps the state a real one would (for tests and no card)."""

    def __init__(self, path: Path, length: float, log_to: list[tuple[str, str]]) -> None:
        self.path = path
        self.length = length
        self.volume = 1.0
        self.loop = False
        self._playing = False
        self._log = log_to

    def play(self) -> None:
        self._playing = True
        self._log.append(("play", self.path.stem))

    def stop(self) -> None:
        self._playing = False
        self._log.append(("stop", self.path.stem))

    def set_volume(self, volume: float) -> None:
        self.volume = volume

    def set_loop(self, loop: bool) -> None:
        self.loop = loop

    @property
    def playing(self) -> bool:
        return self._playing


class SilentAudio:
    """The stand-in backend: loads files (checking they exist and reading their lengths)."""

    name = "silent"

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.paused = False

    def load(self, path: str | Path) -> SilentTrack:
        p = Path(path)
        return SilentTrack(p, audio_length(p), self.log)

    def pause_all(self) -> bool:
        self.paused = True
        self.log.append(("pause_all", ""))
        return True

    def resume_all(self) -> bool:
        self.paused = False
        self.log.append(("resume_all", ""))
        return True

    def close(self) -> None:
        pass


# -- Kivy ------------------------------------------------------------------------------------


class KivyTrack:
    """A Kivy Sound (SDL2 mixer)."""

    def __init__(self, path: Path, sound: Any) -> None:
        self.path = path
        self._sound = sound
        self.length = float(sound.length or 0.0)

    def play(self) -> None:
        self._sound.play()

    def stop(self) -> None:
        self._sound.stop()

    def set_volume(self, volume: float) -> None:
        self._sound.volume = volume

    def set_loop(self, loop: bool) -> None:
        self._sound.loop = loop

    @property
    def playing(self) -> bool:
        return bool(self._sound.state == "play")


def _find_sdl_mixer() -> Any | None:
    """The SDL2_mixer library Kivy plays through, opened with ctypes (None if not found)."""
    try:
        import kivy
    except ImportError:
        return None
    site = Path(kivy.__file__).resolve().parent.parent
    candidates = sorted(site.glob("Kivy.libs/libSDL2_mixer*.so*")) + sorted(
        site.glob("kivy/.dylibs/libSDL2_mixer*")
    )
    names = [str(p) for p in candidates]
    found = ctypes.util.find_library("SDL2_mixer") or ctypes.util.find_library("SDL2_mixer-2.0")
    if found:
        names.append(found)
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            lib.Mix_Pause, lib.Mix_Resume  # noqa: B018 - raise now if the symbols are missing
            return lib
        except (OSError, AttributeError):
            continue
    return None


class KivyAudio:
    """Sounds through Kivy's SoundLoader (the SDL2 mixer in the Kivy wheel)."""

    name = "kivy"

    def __init__(self) -> None:
        try:
            from kivy.core.audio import SoundLoader
        except Exception as exc:  # Kivy missing or no audio provider
            raise HardwareError(f"Kivy audio is not available: {exc}") from exc
        self._loader = SoundLoader
        self._mixer = _find_sdl_mixer()
        self._tracks: list[KivyTrack] = []

    @property
    def can_pause(self) -> bool:
        """True when music can be paused and resumed where it was."""
        return self._mixer is not None

    def load(self, path: str | Path) -> KivyTrack:
        p = Path(path)
        if not p.is_file():
            raise SoundMissing(f"sound file {p} does not exist")
        sound = self._loader.load(str(p))
        if sound is None or not sound.length:
            raise SoundMissing(f"sound file {p} could not be decoded by Kivy's audio")
        track = KivyTrack(p, sound)
        self._tracks.append(track)
        return track

    def pause_all(self) -> bool:
        if self._mixer is None:
            return False
        self._mixer.Mix_Pause(-1)
        return True

    def resume_all(self) -> bool:
        if self._mixer is None:
            return False
        self._mixer.Mix_Resume(-1)
        return True

    def close(self) -> None:
        for track in self._tracks:
            track.stop()
        self._tracks.clear()


class AudioTable(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[audio]`` table of the config file: every key it may hold, with its type."""

    backend: str | UnsetType = UNSET
    volume: Annotated[float, msgspec.Meta(ge=0, le=1)] | UnsetType = UNSET
    soundtracks: str | UnsetType = UNSET
    soundtrack: str | UnsetType = UNSET
    round_length: Annotated[float, msgspec.Meta(gt=0)] | UnsetType = UNSET


#: Keys allowed in the ``[audio]`` table.
AUDIO_KEYS: tuple[str, ...] = AudioTable.__struct_fields__


def audio_options(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``[audio]`` table, checked against :class:`AudioTable`: the keys it gives.
    Raised when ...: ConfigError naming a bad key or value."""
    table = checked((config or {}).get("audio", {}), AudioTable, "[audio]", ConfigError)
    return {key: value for key in AUDIO_KEYS if (value := getattr(table, key)) is not UNSET}


def round_from_config(
    backend: AudioBackend,
    config: Mapping[str, Any] | None = None,
    *,
    clock: Clock = time.monotonic,
    on_cue: Callable[[Cue], None] | None = None,
) -> RoundPlayer:
    """A RoundPlayer for ``[audio] soundtrack`` (from the soundtracks folder) or the drum loop.

    A chosen soundtrack sets the round length; the looping drum loop uses ``round_length``
    (default 180 s). Raised when ...: SoundMissing naming a soundtrack that is not there.
    """
    from hardware.audio.sounds import default_soundtrack, find_soundtrack
    from hardware.config import soundtracks_dir

    opts = audio_options(config)
    folder = soundtracks_dir({"audio": opts})
    if "soundtrack" in opts:
        track = find_soundtrack(folder, opts["soundtrack"])
        duration = None
    else:
        track = default_soundtrack()
        duration = float(opts.get("round_length", 180.0))
    return RoundPlayer(backend, track, duration=duration, clock=clock,
                       volume=float(opts.get("volume", 0.8)), on_cue=on_cue)


def open_audio(
    backend: str | None = None,
    config: Mapping[str, Any] | None = None,
    *,
    fallback: bool = True,
) -> AudioBackend:
    """Choose and start an audio backend (see the module docstring for the order).

    Raised when ...: ConfigError for an unknown backend name; HardwareError when Kivy audio
    cannot start and ``fallback`` is False.
    """
    section = audio_options(config)
    name = backend or os.environ.get(ENV_VAR) or section.get("backend") or "kivy"
    name = str(name).strip().lower()
    if name == "silent":
        return SilentAudio()
    if name != "kivy":
        raise ConfigError(f"unknown audio backend {name!r}: choose kivy or silent")
    try:
        return KivyAudio()
    except HardwareError as exc:
        if not fallback:
            raise
        warnings.warn(f"audio falls back to silence: {exc}", AudioFallback, stacklevel=2)
        return SilentAudio()


# -- the table's sounds ------------------------------------------------------------------------


class Sounds:
    """Every sound of the table on one backend at one volume: the announcer's cues and effects
    by name, and the round's music.

    A sound ``name`` ("yarra_mark", "knockout", "occulites_look"...) is a file called
    ``name.*`` in ``folder`` (the soundtracks folder, so players can replace any sound), else
    the built-in sound of that name; a name with neither plays nothing and is remembered in
    :attr:`missing` (a table never stops over a sound). Every sound asked for is remembered in
    :attr:`heard`, in order. The app and :class:`RoundPlayer` both play through this.
    ``played``, when given, is told every sound as it starts, pauses, goes on and stops (what
    the speaker plays: the listener takes it away from what the microphone hears).
    """

    def __init__(self, backend: AudioBackend, *, volume: float = 0.8,
                 folder: Path | None = None, played: Played | None = None) -> None:
        self.backend = backend
        self.folder = folder
        self.played = played
        self._playing: dict[str, int] = {}  # sound name (or "music") -> its handle in played
        self.heard: list[str] = []
        self.missing: set[str] = set()
        self._tracks: dict[str, Track | None] = {}
        self.music: Track | None = None
        self._music_paused_by_mixer = False
        self._music_loop = False
        self._muted = False
        self._volume = 0.0
        self.volume = volume

    @property
    def volume(self) -> float:
        """Master volume, 0 to 1, for music, announcer and effects."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        if isinstance(value, bool) or not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"volume must be between 0 and 1, got {value}")
        self._volume = float(value)
        self._apply_volume()

    @property
    def muted(self) -> bool:
        """True while every sound is silenced (the volume is kept for when it comes back)."""
        return self._muted

    @muted.setter
    def muted(self, on: bool) -> None:
        self._muted = bool(on)
        self._apply_volume()

    @property
    def level(self) -> float:
        """The level sounds play at now: the volume, or 0 while muted."""
        return 0.0 if self._muted else self._volume

    def _apply_volume(self) -> None:
        for track in self.tracks():
            track.set_volume(self.level)
        if self.played is not None:
            for handle in self._playing.values():
                self.played.level(handle, self.level)

    def _told(self, key: str, track: Track, *, loop: bool = False) -> None:
        """Tell :attr:`played` that ``track`` starts (again) under ``key``."""
        if self.played is None:
            return
        old = self._playing.pop(key, None)
        if old is not None:
            self.played.stopped(old)
        self._playing[key] = self.played.started(track.path, level=self.level, loop=loop,
                                                 speech=key in SPEECH_SOUNDS)

    def tracks(self) -> list[Track]:
        """Every sound loaded so far, the music included."""
        loaded = [t for t in self._tracks.values() if t is not None]
        return loaded + ([self.music] if self.music is not None else [])

    def path_of(self, name: str) -> Path:
        """The file a sound name plays: the folder's ``name.*`` first, else the built-in.

        Raised when ...: SoundMissing when there is neither.
        """
        if self.folder is not None and self.folder.is_dir():
            for candidate in sorted(self.folder.glob(f"{name}.*")):
                if candidate.is_file():
                    return candidate
        return _sound_path(name)

    def load(self, name: str) -> Track:
        """Load a sound by name now (so a missing file is found before it is needed).

        Raised when ...: SoundMissing naming the sound or file.
        """
        track = self._tracks.get(name)
        if track is None:
            track = self.backend.load(self.path_of(name))
            track.set_volume(self.level)
            self._tracks[name] = track
        return track

    def play(self, name: str) -> bool:
        """Play a cue or effect by name; False (and nothing plays) when there is no such sound."""
        self.heard.append(name)
        if name in self.missing:
            return False
        try:
            track = self.load(name)
        except (SoundMissing, HardwareError) as exc:
            self.missing.add(name)
            log.warning("sound %r not played: %s", name, exc)
            return False
        track.play()
        self._told(name, track)
        return True

    # -- the music ---------------------------------------------------------------------

    def set_music(self, soundtrack: Soundtrack | None, *, loop: bool = False) -> None:
        """The music of the rounds to come (None: no music). Raised when ...: SoundMissing."""
        self.stop_music()
        if soundtrack is None:
            self.music = None
            return
        self.music = self.backend.load(soundtrack.path)
        self._music_loop = soundtrack.loop or loop
        self.music.set_loop(self._music_loop)
        self.music.set_volume(self.level)

    def start_music(self) -> None:
        """The round starts: music from its top."""
        if self.music is not None:
            self._music_paused_by_mixer = False
            self.music.play()
            self._told("music", self.music, loop=self._music_loop)

    def pause_music(self) -> None:
        """Pause the music where it is (or stop it where the backend cannot pause)."""
        if self.music is None or not self.music.playing:
            return
        if self.backend.pause_all():
            self._music_paused_by_mixer = True
            if self.played is not None:  # the mixer pauses every sound
                for handle in self._playing.values():
                    self.played.paused(handle)
        else:
            self.music.stop()
            self._stopped("music")
            log.warning("audio backend cannot pause: music restarts from the top on resume")

    def _stopped(self, key: str) -> None:
        handle = self._playing.pop(key, None)
        if handle is not None and self.played is not None:
            self.played.stopped(handle)

    def resume_music(self) -> None:
        """Go on after :meth:`pause_music`."""
        if self.music is None:
            return
        if self._music_paused_by_mixer:
            self._music_paused_by_mixer = False
            self.backend.resume_all()
            if self.played is not None:
                for handle in self._playing.values():
                    self.played.resumed(handle)
        elif not self.music.playing:
            self.music.play()
            self._told("music", self.music, loop=self._music_loop)

    def stop_music(self) -> None:
        if self.music is not None:
            if self._music_paused_by_mixer:
                self.backend.resume_all()
                self._music_paused_by_mixer = False
            self.music.stop()
            self._stopped("music")

    def stop(self) -> None:
        """Stop every sound."""
        self.stop_music()
        for track in self.tracks():
            track.stop()
        for key in list(self._playing):
            self._stopped(key)

    def close(self) -> None:
        self.stop()
        self.backend.close()


# -- the round -------------------------------------------------------------------------------


class RoundPlayer:
    """One round on its own clock: the clock, its soundtrack and the announcer, kept together
    (for a table without the app; the app drives :class:`Sounds` from its game's clock).

    ``duration`` defaults to the soundtrack's length (a looping soundtrack such as the built-in
    drum loop needs ``duration``). Call :meth:`tick` often (e.g. from a Kivy Clock interval): it
    plays the cues that are due and returns them. Sounds are loaded at construction, so a
    missing file fails before the round starts, naming the file.
    """

    def __init__(
        self,
        backend: AudioBackend,
        soundtrack: Soundtrack,
        *,
        duration: float | None = None,
        clock: Clock = time.monotonic,
        volume: float = 0.8,
        cue_sounds: Mapping[str, str | Path] | None = None,
        on_cue: Callable[[Cue], None] | None = None,
        folder: Path | None = None,
    ) -> None:
        if duration is None:
            if soundtrack.loop:
                raise ConfigError(
                    f"soundtrack {soundtrack.path.name} loops: give the round a duration"
                )
            duration = soundtrack.length
        self.sounds = Sounds(backend, volume=volume, folder=folder)
        self.backend = backend
        self.soundtrack = soundtrack
        self.clock = RoundClock(duration, clock=clock)
        self.on_cue = on_cue
        self.sounds.set_music(soundtrack, loop=duration > soundtrack.length)
        assert self.sounds.music is not None
        self.music: Track = self.sounds.music
        self.cue_sounds = dict(CUE_SOUNDS)
        self.cue_sounds.update({k: str(v) for k, v in (cue_sounds or {}).items()})
        for cue in self.clock.schedule:
            ref = self.cue_sounds.get(cue.name)
            if ref:
                self.sounds.load(ref)

    @property
    def volume(self) -> float:
        """Master volume, 0 to 1, applied to music, announcer and effects."""
        return self.sounds.volume

    @volume.setter
    def volume(self, value: float) -> None:
        self.sounds.volume = value

    @property
    def cue_tracks(self) -> dict[str, Track]:
        """The loaded track of each cue of the round's schedule."""
        return {c.name: self.sounds.load(self.cue_sounds[c.name]) for c in self.clock.schedule
                if self.cue_sounds.get(c.name)}

    @property
    def effects(self) -> dict[str, Track]:
        """Effects played so far (sounds that are no cue of the schedule), by name."""
        cues = set(self.cue_sounds.values())
        return {name: self.sounds.load(name) for name in dict.fromkeys(self.sounds.heard)
                if name not in cues and name not in self.sounds.missing}

    def start(self) -> list[Cue]:
        """Start the clock and the music; the start cue ("Yarra Mark!") plays at once."""
        self.clock.start()
        self.sounds.start_music()
        return self.tick()

    def tick(self) -> list[Cue]:
        """Play the cues that have come due; at the end the music stops."""
        cues = self.clock.due_cues()
        for cue in cues:
            if cue.name == "end":
                self.sounds.stop_music()
            ref = self.cue_sounds.get(cue.name)
            if ref:
                self.sounds.play(ref)
            if self.on_cue is not None:
                self.on_cue(cue)
        return cues

    def pause(self) -> None:
        """Pause clock and sound together."""
        if self.clock.state != "running":
            return
        self.clock.pause()
        self.sounds.pause_music()

    def resume(self) -> None:
        """Resume clock and sound together."""
        if self.clock.state != "paused":
            return
        self.clock.resume()
        self.sounds.resume_music()

    def play_effect(self, name: str | Path) -> None:
        """Play ``hit``, ``knockout`` (built in) or a sound file."""
        self.sounds.play(str(name))

    def stop(self) -> None:
        """Stop all sound (the clock keeps its state)."""
        self.sounds.stop()


def audio_volume(config: Mapping[str, Any] | None) -> float | None:
    """``[audio] volume`` of a parsed config (checked), or None when it does not say."""
    opts = audio_options(config)
    return float(opts["volume"]) if "volume" in opts else None


def _sound_path(ref: str | Path) -> Path:
    """A built-in sound name, or a path to a file."""
    text = str(ref)
    if "/" not in text and "." not in text:
        return builtin_sound(text)
    path = Path(text)
    if not path.is_file():
        raise SoundMissing(f"sound file {path} does not exist")
    return path
