"""Sound files as samples: decoded by libsndfile (the ``soundfile`` package: WAV, FLAC, Ogg
Vorbis and Opus, MP3), mixed to mono and resampled to the rate asked for.

The microphone's replay source reads recordings with it, and the listener decodes what the
companion's own speaker plays (the soundtrack, the announcer) to take it away from what the
microphone hears.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from hardware.errors import SoundMissing


def load_mono(path: str | Path, rate: int) -> np.ndarray:
    """The sound in ``path`` as float32 mono samples in -1..1 at ``rate`` samples a second.

    Raised when ...: SoundMissing naming the file when it does not exist or libsndfile cannot
    read it.
    """
    p = Path(path)
    try:
        stat = p.stat()
    except OSError as e:
        raise SoundMissing(f"sound file {p} cannot be read: {e.strerror or e}") from None
    if not p.is_file():
        raise SoundMissing(f"sound file {p} is not a file")
    return _load(str(p.resolve()), stat.st_mtime_ns, stat.st_size, rate).copy()


@functools.lru_cache(maxsize=16)
def _load(path: str, mtime: int, size: int, rate: int) -> np.ndarray:
    import soundfile

    try:
        data, source_rate = soundfile.read(path, dtype="float32", always_2d=True)
    except (soundfile.LibsndfileError, RuntimeError, ValueError) as e:
        raise SoundMissing(f"sound file {path} could not be decoded: {e}") from None
    mono = data.mean(axis=1, dtype=np.float32)
    return resample(mono, int(source_rate), rate)


def resample(samples: np.ndarray, source_rate: int, rate: int) -> np.ndarray:
    """``samples`` at ``source_rate`` as float32 at ``rate`` (libsoxr, the ``soxr`` package:
    quick to import and to run, where scipy's signal module takes seconds to import)."""
    if source_rate == rate or len(samples) == 0:
        return samples.astype(np.float32, copy=False)
    import soxr  # type: ignore[import-untyped]  # (no stubs or py.typed in its wheel)

    return np.asarray(soxr.resample(samples.astype(np.float32), source_rate, rate),
                      dtype=np.float32)


__all__ = ["load_mono", "resample"]
