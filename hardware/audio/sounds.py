"""Built-in sounds, user soundtracks, and the length of an audio file without decoding it.

Lengths are read from the file headers (WAV: its header; Ogg Vorbis/Opus: the last page's
granule position; MP3: the frame headers), because the round length follows the soundtrack and
Kivy's SDL2 sound cannot tell its position.
"""

from __future__ import annotations

import struct
import wave
from dataclasses import dataclass
from pathlib import Path

from hardware.errors import SoundMissing

SOUNDS_DIR = Path(__file__).resolve().parent.parent / "sounds"

#: Built-in sounds made by scripts/make_sounds.sh.
BUILTIN_SOUNDS = (
    "drum_loop", "yarra_mark", "yarra_bung", "one_minute", "ten_seconds", "hit", "knockout",
)
SOUNDTRACK_SUFFIXES = (".mp3", ".ogg", ".oga", ".opus", ".wav")


def builtin_sound(name: str) -> Path:
    """Path of a built-in sound by name (``"yarra_mark"``).

    Raised when ...: SoundMissing naming the sound when it is not built in or its file is gone.
    """
    if name not in BUILTIN_SOUNDS:
        raise SoundMissing(
            f"no built-in sound {name!r}; built-in sounds: {', '.join(BUILTIN_SOUNDS)}"
        )
    path = SOUNDS_DIR / f"{name}.ogg"
    if not path.is_file():
        raise SoundMissing(
            f"built-in sound {name!r} is missing: {path} (regenerate with scripts/make_sounds.sh)"
        )
    return path


@dataclass(frozen=True)
class Soundtrack:
    """A piece of music for a round: ``length`` in seconds; ``loop`` repeats it to fill a round."""

    path: Path
    length: float
    loop: bool = False

    @property
    def title(self) -> str:
        """The file name without its suffix, underscores as spaces."""
        return self.path.stem.replace("_", " ")


def default_soundtrack() -> Soundtrack:
    """The built-in drum loop (loops; the round length then comes from the config)."""
    path = builtin_sound("drum_loop")
    return Soundtrack(path, audio_length(path), loop=True)


def list_soundtracks(folder: str | Path) -> list[Soundtrack]:
    """Soundtracks (mp3, ogg, opus, wav) in ``folder``, sorted by name; unreadable files skipped.

    A missing folder gives an empty list: no soundtracks supplied yet.
    """
    root = Path(folder)
    if not root.is_dir():
        return []
    out = []
    for path in sorted(root.iterdir()):
        if path.suffix.lower() in SOUNDTRACK_SUFFIXES and path.is_file():
            try:
                out.append(Soundtrack(path, audio_length(path)))
            except SoundMissing:
                continue
    return out


def find_soundtrack(folder: str | Path, name: str) -> Soundtrack:
    """The soundtrack called ``name`` (file name, with or without suffix) in ``folder``.

    Raised when ...: SoundMissing naming the soundtrack and listing those available.
    """
    tracks = list_soundtracks(folder)
    for track in tracks:
        if name in (track.path.name, track.path.stem):
            return track
    have = ", ".join(t.path.name for t in tracks) or "none"
    raise SoundMissing(f"soundtrack {name!r} not found in {folder} (found: {have})")


# -- lengths -------------------------------------------------------------------------------------


def audio_length(path: str | Path) -> float:
    """Duration in seconds of a WAV, Ogg (Vorbis or Opus) or MP3 file, read from its headers.

    Raised when ...: SoundMissing naming the file when it does not exist or is not a readable
    file of those kinds.
    """
    p = Path(path)
    if not p.is_file():
        raise SoundMissing(f"sound file {p} does not exist")
    suffix = p.suffix.lower()
    try:
        if suffix == ".wav":
            with wave.open(str(p), "rb") as w:
                return w.getnframes() / float(w.getframerate())
        data = p.read_bytes()
        if data.startswith(b"OggS"):
            return _ogg_length(data)
        if suffix == ".mp3" or data[:3] == b"ID3" or (data[:1] == b"\xff"):
            return _mp3_length(data)
    except (wave.Error, EOFError, ValueError, struct.error) as exc:
        raise SoundMissing(f"sound file {p} could not be read: {exc}") from exc
    raise SoundMissing(f"sound file {p} is not WAV, Ogg or MP3")


def _ogg_length(data: bytes) -> float:
    vorbis = data.find(b"\x01vorbis")
    opus = data.find(b"OpusHead")
    if vorbis >= 0 and (opus < 0 or vorbis < opus):
        rate = int(struct.unpack_from("<I", data, vorbis + 12)[0])
        pre_skip = 0
    elif opus >= 0:
        rate = 48000  # Opus granule positions always count 48 kHz samples
        pre_skip = int(struct.unpack_from("<H", data, opus + 10)[0])
    else:
        raise ValueError("Ogg stream is neither Vorbis nor Opus")
    last = data.rfind(b"OggS")
    if last < 0 or rate <= 0:
        raise ValueError("no Ogg page found")
    granule = int(struct.unpack_from("<q", data, last + 6)[0])
    if granule < 0:
        raise ValueError("last Ogg page has no granule position")
    return max(granule - pre_skip, 0) / float(rate)


_MP3_BITRATES = {
    1: (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320),  # MPEG-1 layer III
    2: (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),  # MPEG-2/2.5 layer III
}
_MP3_RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}


def _mp3_length(data: bytes) -> float:
    pos = 0
    if data[:3] == b"ID3" and len(data) >= 10:
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        pos = 10 + size
    seconds = 0.0
    frames = 0
    n = len(data)
    while pos + 4 <= n:
        b1, b2 = data[pos + 1], data[pos + 2]
        if data[pos] != 0xFF or (b1 & 0xE0) != 0xE0:
            if frames:
                break  # trailing tag (ID3v1, APE) after the audio
            pos += 1  # leading junk before the first frame
            continue
        version = (b1 >> 3) & 0x3  # 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
        layer = (b1 >> 1) & 0x3  # 1 = layer III
        br_index = (b2 >> 4) & 0xF
        sr_index = (b2 >> 2) & 0x3
        padding = (b2 >> 1) & 0x1
        if version == 1 or layer != 1 or br_index in (0, 15) or sr_index == 3:
            if frames:
                break
            pos += 1
            continue
        bitrate = _MP3_BITRATES[1 if version == 3 else 2][br_index] * 1000
        rate = _MP3_RATES[version][sr_index]
        samples = 1152 if version == 3 else 576
        length = (144 if version == 3 else 72) * bitrate // rate + padding
        seconds += samples / rate
        frames += 1
        pos += length
    if not frames:
        raise ValueError("no MPEG layer III frames found")
    return seconds
