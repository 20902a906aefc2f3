"""Taking the companion's own sound out of what its microphone hears (acoustic echo cancelling).

The speaker's signal is known (:class:`hardware.audio.played.Played`); what reaches the
microphone is that signal delayed (the sound card's and the air's latency) and coloured by the
speaker and the room. :class:`EchoCanceller` learns that path as it goes: a partitioned-block
frequency-domain adaptive filter (normalised least mean squares, the textbook one: blocks of
16 ms, 24 partitions, so echoes up to 384 ms after the signal are followed), and subtracts its
estimate. Once it has learnt the room, it stops learning while someone speaks over the music
(what is left is then mostly the voice, which must not be learned as the room).

numpy only; about 2-4% of one core here at 16 kHz.
"""

from __future__ import annotations

import numpy as np

#: Samples a block (16 ms at 16 kHz).
BLOCK = 256
#: Partitions of the filter: BLOCK * PARTITIONS samples of echo followed (384 ms).
PARTITIONS = 24
#: Blocks of learning after which a voice over the music stops the learning (5 s).
LEARNT_BLOCKS = 312


class EchoCanceller:
    """Subtracts the speaker's known signal, as heard in this room, from the microphone's.

    Feed it the microphone's samples and the speaker's samples for the same moments
    (:meth:`process`); it returns what is left (the players' voices), with the same length.
    ``mu`` is the adaptation step (0..1).
    """

    def __init__(self, *, block: int = BLOCK, partitions: int = PARTITIONS,
                 mu: float = 0.8) -> None:
        self.n = block
        self.m = partitions
        self.mu = mu
        bins = block + 1
        self._w = np.zeros((partitions, bins), dtype=np.complex128)
        self._x = np.zeros((partitions, bins), dtype=np.complex128)
        self._power = np.full(bins, 1e-6)
        self._last = np.zeros(block)
        self._mic = np.zeros(0)
        self._ref = np.zeros(0)
        self._out = np.zeros(0, dtype=np.float32)
        self._constrain = 0
        self.blocks = 0
        self.resets = 0
        #: Blocks the filter learnt from (the speaker playing, nobody speaking over it).
        self.learnt = 0
        #: Samples the output lags the input by (fixed once the first samples came).
        self.latency: int | None = None

    def process(self, mic: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """What is left of ``mic`` once the echo of ``ref`` (same length) is taken out.

        The result lags by less than one block inside, and is returned with ``mic``'s length
        (the first call's first samples are zeros while the first block fills)."""
        if len(mic) != len(ref):
            raise ValueError(f"mic and ref differ in length: {len(mic)} and {len(ref)}")
        self._mic = np.concatenate([self._mic, mic.astype(np.float64)])
        self._ref = np.concatenate([self._ref, ref.astype(np.float64)])
        out = [self._out]
        n = self.n
        while len(self._mic) >= n:
            d, self._mic = self._mic[:n], self._mic[n:]
            x, self._ref = self._ref[:n], self._ref[n:]
            out.append(self._block(d, x).astype(np.float32))
        have = np.concatenate(out)
        if self.latency is None:
            self.latency = len(mic) - len(have)
        if len(have) < len(mic):
            have = np.concatenate([np.zeros(len(mic) - len(have), dtype=np.float32), have])
        self._out = have[len(mic):]
        return have[:len(mic)]

    def _block(self, d: np.ndarray, x: np.ndarray) -> np.ndarray:
        n = self.n
        spectrum = np.fft.rfft(np.concatenate([self._last, x]))
        self._last = x
        self._x = np.roll(self._x, 1, axis=0)
        self._x[0] = spectrum
        y = np.fft.irfft((self._w * self._x).sum(axis=0))[n:]
        e = d - y
        self.blocks += 1
        if not np.isfinite(e).all() or float(np.dot(e, e)) > 100.0 * n:
            # the filter went astray (a sudden change it cannot follow): start it afresh
            self._w[:] = 0
            self.resets += 1
            self.learnt = 0
            e = d.copy()
        ref_energy = float(np.dot(x, x))
        if ref_energy < 1e-8 * n:  # the speaker is silent: nothing to learn
            return e
        self._power = 0.9 * self._power + 0.1 * (np.abs(spectrum) ** 2)
        err = np.fft.rfft(np.concatenate([np.zeros(n), e]))
        echo = float(np.dot(y, y))
        left = float(np.dot(e, e))
        # Someone speaks over the music: what is left is their voice, not the room's echo, and
        # learning it would spoil the filter (once it has learnt the room: 5 s of sound).
        if left > 4.0 * echo and self.learnt > LEARNT_BLOCKS:
            return e
        self.learnt += 1
        step = self.mu
        norm = self._power * self.m + 1e-6 * n
        self._w += step * np.conj(self._x) * err / norm
        # The gradient constraint (one partition a block, in turn): each partition's filter
        # is one block long, so its circular convolution stays linear.
        k = self._constrain
        self._constrain = (k + 1) % self.m
        taps = np.fft.irfft(self._w[k])
        taps[n:] = 0.0
        self._w[k] = np.fft.rfft(taps)
        return e


__all__ = ["BLOCK", "PARTITIONS", "EchoCanceller"]
