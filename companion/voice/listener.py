"""From the microphone's blocks to phrases heard: the companion's own sound taken away, speech
cut into utterances, each heard as a phrase or as nothing.

No Kivy and no thread here: :class:`Listener` is fed blocks in order (by the app's listening
thread, by ``companion hear`` from a file, by the tests and benchmarks) and returns what was
heard. Three things keep the soundtrack and the announcer from becoming calls:

- what the speaker played (:class:`~hardware.audio.played.Played`) is subtracted from what the
  microphone heard (:class:`~hardware.microphone.echo.EchoCanceller`);
- an utterance that overlaps the announcer's words (plus the room's ring) is not decoded;
- an utterance must be speech (the WebRTC voice detector in PocketSphinx) standing out from
  the level of what is left, and the recogniser must find it a whole phrase, said plainly.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from companion.voice.phrases import Heard, Vocabulary
from companion.voice.recogniser import Decision, Recogniser
from hardware.audio.played import Played
from hardware.microphone.base import RATE, Block
from hardware.microphone.echo import LEARNT_BLOCKS, EchoCanceller

log = logging.getLogger(__name__)

#: The voice detector's frame: 30 ms.
FRAME = 480
#: Frames of speech (of the last three) that start an utterance.
START_FRAMES = 2
#: Frames without speech that end one (240 ms: most of the time from the end of a call to
#: the call on the screen).
END_FRAMES = 8
#: Sound kept before an utterance's first speech frame, and after its last.
BEFORE = 0.15
AFTER = 0.09
#: Utterances shorter or longer than these are no call (a cough; a sentence of table talk).
SHORTEST = 0.3
LONGEST = 3.6
#: A call cut in two by a pause inside it: an utterance not taken is heard again joined to the
#: next one when that starts within this many seconds of its end.
JOIN_GAP = 0.6
#: Seconds of sound kept for joining (a call is at most LONGEST long).
KEEP = 8.0
#: Sensitivity 0..1 -> dB above the level of what is left that speech must reach.
MARGIN_AT = (14.0, 6.0)
#: What is usually left between calls: a high percentile of the last frames' levels that were
#: not speech (3 s); speech must stand this many dB above it.
BACKGROUND_FRAMES = 100
BACKGROUND_PERCENTILE = 90.0
BACKGROUND_MARGIN = 6.0
#: More, while the echo canceller has not yet learnt the room (its first 5 s of the speaker).
LEARNING_MARGIN = 6.0
#: Of what the microphone heard, the share the speaker's signal must leave unexplained for
#: a frame to be speech (a drum the canceller took most of is not a voice).
UNEXPLAINED = 0.25


@dataclass(frozen=True)
class Utterance:
    """Sound cut out around speech: ``start`` the time of its first sample."""

    samples: np.ndarray
    start: float

    @property
    def end(self) -> float:
        return self.start + len(self.samples) / RATE


class Endpointer:
    """Cuts utterances out of a stream: speech frames (the voice detector, and a level above
    the tracked noise floor), started by :data:`START_FRAMES`, ended by :data:`END_FRAMES`."""

    def __init__(self, sensitivity: float = 0.5, *, mode: int = 3) -> None:
        import pocketsphinx as ps

        self._vad = ps.Vad(mode, RATE, FRAME / RATE)
        s = min(1.0, max(0.0, sensitivity))
        self.margin = MARGIN_AT[0] + (MARGIN_AT[1] - MARGIN_AT[0]) * s
        self.floor = -60.0
        self._pending = np.zeros(0, dtype=np.float32)
        self._heard = np.zeros(0, dtype=np.float32)
        self._t = 0.0  # time of the first pending sample
        self._history: deque[np.ndarray] = deque(maxlen=int(BEFORE * RATE / FRAME) + 1)
        self._recent: deque[bool] = deque(maxlen=3)
        self._tail: deque[bool] = deque(maxlen=END_FRAMES)
        self._tail_voiced: deque[bool] = deque(maxlen=END_FRAMES)
        #: The echo canceller is still learning the room (the listener says so).
        self.learning = False
        self._last_voiced = 0
        #: Whether the last frame was voiced (the voice detector's word).
        self.voiced = False
        self._levels: deque[float] = deque(maxlen=BACKGROUND_FRAMES)
        self._speech: list[np.ndarray] | None = None
        self._speech_start = 0.0
        self._too_long = False
        self.dropped_long = 0

    def feed(self, samples: np.ndarray, t: float, heard: np.ndarray | None = None
             ) -> list[Utterance]:
        """Samples from time ``t`` (contiguous with the last ones fed, or after a gap);
        ``heard``: what the microphone heard for the same samples before the speaker's signal
        was taken away (None: nothing was)."""
        if len(self._pending) == 0:
            self._t = t
        self._pending = np.concatenate([self._pending, samples.astype(np.float32)])
        mic = samples if heard is None else heard
        self._heard = np.concatenate([self._heard, mic.astype(np.float32)])
        out: list[Utterance] = []
        while len(self._pending) >= FRAME:
            frame, self._pending = self._pending[:FRAME], self._pending[FRAME:]
            before, self._heard = self._heard[:FRAME], self._heard[FRAME:]
            start = self._t
            self._t += FRAME / RATE
            u = self._frame(frame, before, start)
            if u is not None:
                out.append(u)
        return out

    def _is_speech(self, frame: np.ndarray, heard: np.ndarray) -> bool:
        energy = float(np.mean(np.square(frame, dtype=np.float64)))
        level = 10.0 * math.log10(energy + 1e-12)
        # what the canceller explained was the speaker, not a player
        unexplained = energy >= UNEXPLAINED * float(np.mean(np.square(heard, dtype=np.float64)))
        # above the quiet (the floor) and above what is usually left between calls (the
        # soundtrack's remains: its loudest frames, BACKGROUND_PERCENTILE of the last seconds)
        background = float(np.percentile(self._levels, BACKGROUND_PERCENTILE)) \
            if len(self._levels) >= 10 else self.floor
        # inside an utterance, a softer sound (a consonant, a breath between words) goes on
        inside = self._speech is not None
        # inside an utterance a softer sound (a consonant under a drum) carries it on
        above = background + (BACKGROUND_MARGIN / 2 if inside else BACKGROUND_MARGIN)
        loud = level > self.floor + self.margin and level > above and (unexplained or inside)
        # while the canceller is still learning the room, the soundtrack is barely taken away
        clear = level > background + BACKGROUND_MARGIN + (LEARNING_MARGIN if self.learning
                                                          else 0.0) and unexplained
        # the floor follows quiet frames down at once, and rises slowly (1 dB a second)
        if level < self.floor:
            self.floor = level
        elif not loud:
            self.floor += 0.03
        pcm = (np.clip(frame, -1, 1) * 32767).astype(np.int16).tobytes()
        voice = bool(self._vad.is_speech(pcm))
        if not voice:  # what the room sounds like: the frames the voice detector finds no
            self._levels.append(level)  # voice in (whatever the state of an utterance)
        self.voiced = loud and clear and voice
        if not loud:
            return False
        # a clear voice starts an utterance; the level carries it on
        return True if inside else self.voiced

    def _frame(self, frame: np.ndarray, heard: np.ndarray, t: float) -> Utterance | None:
        speech = self._is_speech(frame, heard)
        self._recent.append(speech)
        if self._speech is None:
            self._history.append(frame)
            if sum(self._recent) >= START_FRAMES:
                before = list(self._history)
                self._speech = before
                self._last_voiced = len(before)
                self._speech_start = t + FRAME / RATE - len(before) * FRAME / RATE
                self._too_long = False
            return None
        self._speech.append(frame)
        if self.voiced:
            self._last_voiced = len(self._speech)
        self._tail.append(speech)
        self._tail_voiced.append(self.voiced)
        # the end: all but one of the last END_FRAMES frames quiet (a drum's remains may blip);
        # of one too long to be a call, all but one not a clear voice (what carries it on may
        # be the soundtrack's remains, louder than the room was when it began)
        tail = self._tail_voiced if self._too_long else self._tail
        ended = len(tail) == END_FRAMES and sum(tail) <= 1
        length = len(self._speech) * FRAME / RATE
        if length > LONGEST + END_FRAMES * FRAME / RATE and not self._too_long:
            self._too_long = True  # a sentence, not a call: wait for its end, then drop it
            self.dropped_long += 1
        if not ended:
            if self._too_long:
                self._speech = self._speech[-END_FRAMES:]
            return None
        # cut after the voice detector's last voiced frame (what carried on may be the drum)
        keep = min(len(self._speech) - END_FRAMES, self._last_voiced) \
            + math.ceil(AFTER * RATE / FRAME)
        samples = np.concatenate(self._speech[:keep])
        start, too_long = self._speech_start, self._too_long
        self._speech = None
        self._history.clear()
        self._recent.clear()
        self._tail.clear()
        self._tail_voiced.clear()
        if too_long or len(samples) < SHORTEST * RATE:
            return None
        return Utterance(samples, start)


@dataclass(frozen=True)
class Skipped:
    """An utterance not taken, and why (for the log, ``companion hear --verbose`` and tests)."""

    start: float
    end: float
    why: str
    decision: Decision | None = None


class Listener:
    """The listening pipeline, fed in order (see the module docstring).

    ``played`` is what the companion's speaker plays (None: it plays nothing the listener
    knows of); ``sensitivity`` 0..1 (Settings). ``on_skip`` hears every utterance not taken.
    """

    def __init__(self, recogniser: Recogniser, *, played: Played | None = None,
                 sensitivity: float = 0.5,
                 on_skip: Callable[[Skipped], None] | None = None) -> None:
        self.recogniser = recogniser
        self.played = played
        self.canceller = EchoCanceller()
        self.endpointer = Endpointer(sensitivity)
        recogniser.sensitivity = sensitivity
        self.on_skip = on_skip
        self.utterances = 0
        self.seconds = 0.0
        self._lagged: np.ndarray | None = None
        self._kept = np.zeros(0, dtype=np.float32)
        self._kept_t: float | None = None
        self._missed: Utterance | None = None

    def use(self, vocabulary: Vocabulary) -> None:
        """Listen for these phrases from now on."""
        self.recogniser.use(vocabulary)

    def hear(self, block: Block) -> list[Heard]:
        """The phrases whose utterance ended in this block."""
        samples = block.samples
        if len(samples) == 0:
            return []
        self.seconds += len(samples) / RATE
        mic: np.ndarray | None = None
        t = block.t
        if self.played is not None:
            ref = self.played.render(block.t, len(samples))
            residual = self.canceller.process(samples, ref)
            # the canceller's output lags by a fixed few samples: the microphone's with it
            lag = self.canceller.latency or 0
            if self._lagged is None:
                self._lagged = np.zeros(lag, dtype=np.float32)
            joined = np.concatenate([self._lagged, samples])
            mic, self._lagged = joined[:len(samples)], joined[len(samples):]
            samples, t = residual, block.t - lag / RATE
            self.endpointer.learning = self.canceller.learnt < LEARNT_BLOCKS \
                and bool(np.any(ref))
        self._keep(samples, t)
        heard: list[Heard] = []
        for u in self.endpointer.feed(samples, t, mic):
            self.utterances += 1
            if self.played is not None and self.played.speaking(u.start, u.end):
                self._skip(Skipped(u.start, u.end, "the announcer was speaking"))
                self._missed = None
                continue
            decision = self.recogniser.decide(u.samples)
            missed, self._missed = self._missed, None
            if not decision.kept and missed is not None and u.start - missed.end < JOIN_GAP:
                whole = self._between(missed.start, u.end)
                if whole is not None:  # a pause inside one call cut it in two
                    again = self.recogniser.decide(whole.samples)
                    if again.kept:
                        u, decision = whole, again
            if not decision.kept:
                self._skip(Skipped(u.start, u.end, decision.why, decision))
                self._missed = u
                continue
            heard.append(Heard(decision.words, u.start, u.end,
                               self.recogniser.confidence(decision)))
        return heard

    def _keep(self, samples: np.ndarray, t: float) -> None:
        """Keep the last KEEP seconds of what is left once the speaker's sound is taken away."""
        if self._kept_t is None or abs(self._kept_t + len(self._kept) / RATE - t) > 0.01:
            self._kept, self._kept_t = np.zeros(0, dtype=np.float32), t  # a gap: start anew
        self._kept = np.concatenate([self._kept, samples.astype(np.float32)])
        extra = len(self._kept) - int(KEEP * RATE)
        if extra > 0:
            self._kept = self._kept[extra:]
            self._kept_t += extra / RATE

    def _between(self, start: float, end: float) -> Utterance | None:
        """The sound kept from ``start`` to ``end``, or None when it is no longer kept."""
        if self._kept_t is None:
            return None
        i0 = round((start - self._kept_t) * RATE)
        i1 = round((end - self._kept_t) * RATE)
        if i0 < 0 or i1 > len(self._kept) or i1 <= i0:
            return None
        return Utterance(self._kept[i0:i1].copy(), start)

    def _skip(self, skipped: Skipped) -> None:
        log.debug("voice: not taken (%.2f-%.2f s): %s", skipped.start, skipped.end,
                  skipped.why)
        if self.on_skip is not None:
            self.on_skip(skipped)


__all__ = ["Endpointer", "Listener", "Skipped", "Utterance"]
