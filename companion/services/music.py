"""The round's soundtrack and the announcer's sounds (docs/app.md, "Sound"): opened at the
volume and from the folder the settings give, the soundtrack chosen for the game, and the
music following the round clock.

A service of the app: the app gives it the settings when they change and each change of the
session; it knows nothing of screens or games.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

from companion import settings as settings_mod
from companion.session import Change, SessionChange
from hardware.audio import Sounds
from hardware.audio.played import Played

log = logging.getLogger(__name__)


class Music:
    """The sounds (``sounds``: replaced when the settings change), and the soundtrack chosen
    for the game on the table (``soundtrack``: a file name in the soundtrack folder, or
    "none"). A problem with the sound's settings is said once in ``notices``."""

    def __init__(self, settings: settings_mod.Settings, config: dict[str, Any],
                 played: Played, notices: list[str]) -> None:
        self.settings = settings
        self.config = config
        self.played = played
        self.notices = notices
        self.soundtrack = "none"
        self.sounds = self._open()

    def use_settings(self, settings: settings_mod.Settings) -> None:
        """New settings: the sounds are opened again when their volume or folder changed."""
        old, self.settings = self.settings, settings
        if (settings.volume, settings.soundtrack_folder) != (old.volume, old.soundtrack_folder):
            self.sounds.close()
            self.sounds = self._open()
            self.set_music()

    def _open(self) -> Sounds:
        """The sounds, through the backend COMPANION_AUDIO or [audio] backend names, at the
        volume the Settings give, else [audio] volume, else 80%."""
        from hardware.audio import audio_volume, open_audio
        from hardware.errors import ConfigError

        settings, config = self.settings, self.config
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                backend = open_audio(config=config)
                volume = settings.volume if settings.volume is not None else (
                    audio_volume(config) or settings_mod.DEFAULT_VOLUME)
            except ConfigError as e:  # a bad [audio] table: say so, play at the defaults
                self.notices.append(f"Sound settings of the config file not used: {e}")
                backend = open_audio(config={})
                volume = settings.volume if settings.volume is not None else \
                    settings_mod.DEFAULT_VOLUME
        for w in caught:
            log.warning("companion: %s", w.message)
        folder = settings_mod.soundtrack_dir(settings, config)
        return Sounds(backend, volume=volume, folder=folder, played=self.played)

    def soundtracks(self) -> list[str]:
        """Soundtracks in the soundtrack folder (the hardware layer reads their lengths)."""
        from hardware.audio import list_soundtracks

        folder = settings_mod.soundtrack_dir(self.settings, self.config)
        return [t.path.name for t in list_soundtracks(folder)]

    def soundtrack_length(self, name: str) -> float | None:
        """The length of a soundtrack: a round lasts as long as its music."""
        if name in ("", "none"):
            return None
        from hardware.audio import audio_length
        from hardware.errors import SoundMissing

        path = settings_mod.soundtrack_dir(self.settings, self.config) / name
        try:
            return float(audio_length(path))
        except (SoundMissing, OSError):
            return None

    def set_music(self) -> None:
        """The round's soundtrack, when one was chosen for this game."""
        from hardware.audio import Soundtrack
        from hardware.errors import SoundMissing

        length = self.soundtrack_length(self.soundtrack)
        track = None
        if length is not None:
            folder = settings_mod.soundtrack_dir(self.settings, self.config)
            track = Soundtrack(folder / self.soundtrack, length)
        try:
            self.sounds.set_music(track)
        except SoundMissing as e:
            log.warning("companion: soundtrack not played: %s", e)
            self.sounds.set_music(None)

    def follow(self, change: SessionChange) -> None:
        """The music follows the round clock: it starts, pauses and goes on with it, and
        stops at the round's end."""
        what = change.kind
        if what is Change.CLOCK_START:
            self.sounds.start_music()
        elif what is Change.CLOCK_RESUME:
            self.sounds.resume_music()
        elif what is Change.CLOCK_PAUSE:
            self.sounds.pause_music()
        elif change.is_cue("end"):
            self.sounds.stop_music()

    def close(self) -> None:
        self.sounds.close()


__all__ = ["Music"]
