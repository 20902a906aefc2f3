"""Sound: the round clock and its cues, the soundtrack, the announcer and effects.

>>> from hardware.audio import cue_schedule
>>> [c.name for c in cue_schedule(180)]
['start', 'one_minute', 'ten_seconds', 'end']
"""

from __future__ import annotations

from hardware.audio.clock import CUE_NAMES, Cue, CueName, RoundClock, cue_schedule
from hardware.audio.player import (
    AUDIO_KEYS,
    CUE_SOUNDS,
    AudioBackend,
    AudioFallback,
    KivyAudio,
    RoundPlayer,
    SilentAudio,
    Sounds,
    Track,
    audio_options,
    audio_volume,
    open_audio,
    round_from_config,
)
from hardware.audio.sounds import (
    BUILTIN_SOUNDS,
    SOUNDS_DIR,
    Soundtrack,
    audio_length,
    builtin_sound,
    default_soundtrack,
    find_soundtrack,
    list_soundtracks,
)

__all__ = [
    "AUDIO_KEYS",
    "BUILTIN_SOUNDS",
    "CUE_NAMES",
    "CUE_SOUNDS",
    "SOUNDS_DIR",
    "AudioBackend",
    "AudioFallback",
    "Cue",
    "CueName",
    "KivyAudio",
    "RoundClock",
    "RoundPlayer",
    "SilentAudio",
    "Sounds",
    "Soundtrack",
    "Track",
    "audio_length",
    "audio_options",
    "audio_volume",
    "builtin_sound",
    "cue_schedule",
    "default_soundtrack",
    "find_soundtrack",
    "list_soundtracks",
    "open_audio",
    "round_from_config",
]
