"""A real microphone: a USB microphone through ALSA, or the desktop's PipeWire.

Both are opened through PortAudio (the ``sounddevice`` package, which needs Debian's
``libportaudio2``), imported when a device is opened so that the package imports anywhere.
ALSA: ``alsa`` (the first capture card with "USB" in its name), ``alsa:CARD`` (an ALSA card id
or index, ``alsa:2``, ``alsa:Device``) or ``alsa:hw:2,0``; the card is opened through ALSA's
``plughw`` so that it is resampled to 16 kHz mono. PipeWire: ``pipewire`` is the desktop's
default source (its sound menu), reached through PipeWire's ALSA plugin (``pipewire-alsa``,
part of Raspberry Pi OS's desktop): an app that opens the card itself while the desktop holds it
finds it busy.

Sound arrives on PortAudio's thread and waits in a queue for :meth:`read`; a queue that fills
(nobody reads) drops its oldest blocks, so a slow reader hears the present, not the past.
"""

from __future__ import annotations

import contextlib
import queue
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hardware.errors import MicrophoneUnavailable
from hardware.microphone.base import BLOCK, RATE, Microphone

#: Blocks kept for a reader that falls behind (10 s).
QUEUE_BLOCKS = 500


def capture_cards(cards_text: str, asound: Path = Path("/proc/asound")) -> list[
        tuple[int, str, str]]:
    """(index, id, description) of each ALSA card that can record (has a capture device)."""
    from hardware.audio.route import sound_cards

    out = []
    for index, cid, desc in sound_cards(cards_text):
        card = asound / f"card{index}"
        if any(card.glob("pcm*c")):
            out.append((index, cid, desc))
    return out


def alsa_device(arg: str, cards_text: str, asound: Path = Path("/proc/asound")) -> str:
    """The ALSA device name for ``alsa:ARG``: "" (the first USB capture card, else the first
    capture card), a card index or id, or an ALSA device name as it is ("hw:2,0",
    "plughw:CARD=Device"). Raised when ...: MicrophoneUnavailable when no such card records."""
    if ":" in arg or arg.startswith(("hw", "plughw", "default", "sysdefault", "dsnoop")):
        return arg
    cards = capture_cards(cards_text, asound)
    if not cards:
        raise MicrophoneUnavailable("no ALSA card can record here (plug in a USB microphone; "
                                    "`arecord -l` lists them)")
    if not arg:
        usb = [c for c in cards if "USB" in c[2]]
        index, cid, _ = (usb or cards)[0]
        return f"plughw:CARD={cid},DEV=0"
    for index, cid, _ in cards:
        if arg == str(index) or arg == cid:
            return f"plughw:CARD={cid},DEV=0"
    have = ", ".join(f"{i} ({cid}: {d})" for i, cid, d in cards)
    raise MicrophoneUnavailable(f"no ALSA capture card {arg!r}; cards that record: {have}")


class DeviceMicrophone(Microphone):
    """A microphone PortAudio opens: ``device`` is an ALSA device name ("plughw:CARD=Device,
    DEV=0", "pipewire")."""

    def __init__(self, name: str, device: str, label: str, *, block: int = BLOCK,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.name = name
        self.device = device
        self.label = label
        self.block = block
        self._clock = clock
        self._queue: queue.Queue[tuple[np.ndarray, float]] = queue.Queue(QUEUE_BLOCKS)
        self._stream: Any = None
        self.overflows = 0

    def _open(self) -> None:
        try:
            import sounddevice
        except OSError as e:  # PortAudio's library is missing
            raise MicrophoneUnavailable(f"microphone {self.name}: PortAudio is not installed "
                                        f"({e}): sudo apt install libportaudio2") from None
        try:
            index = self._find(sounddevice)
            self._stream = sounddevice.InputStream(
                samplerate=RATE, blocksize=self.block, device=index, channels=1,
                dtype="float32", callback=self._heard)
            self._stream.start()
        except (sounddevice.PortAudioError, ValueError) as e:
            raise MicrophoneUnavailable(f"microphone {self.name} ({self.device}) cannot be "
                                        f"opened: {e}") from None

    def _find(self, sd: Any) -> int:
        """PortAudio's index of the device: an exact name first, else the name's card part
        ("CARD=Device" in "hw:CARD=Device,DEV=0"), else one whose name contains it."""
        devices = [d for d in sd.query_devices() if d.get("max_input_channels", 0) > 0]
        want = self.device
        for d in devices:
            if d["name"] == want:
                return int(d["index"])
        card = re.search(r"CARD=([^,]+)", want)
        hw = re.search(r"hw:(\d+)", want)
        for d in devices:
            name = d["name"]
            if (card and card[1] in name) or (hw and f"hw:{hw[1]}," in name) or want in name:
                return int(d["index"])
        have = "; ".join(d["name"] for d in devices) or "none"
        raise ValueError(f"PortAudio has no input device {want!r} (input devices: {have})")

    def _heard(self, data: np.ndarray, frames: int, when: Any, status: Any) -> None:
        """PortAudio's thread: keep the block with the time its first sample was heard."""
        t = self._clock() - frames / RATE
        if status:
            self.overflows += 1
        item = (data[:, 0].copy(), t)
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                self._queue.get_nowait()  # the oldest goes: the present matters
            self._queue.put_nowait(item)

    def _read(self, timeout: float) -> tuple[np.ndarray, float]:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return np.zeros(0, dtype=np.float32), self._clock()

    def _close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # a device pulled out mid-game: it is gone either way
                pass


__all__ = ["DeviceMicrophone", "alsa_device", "capture_cards"]
