"""Hearing one utterance as one of the game's phrases, or as nothing: PocketSphinx, offline.

PocketSphinx (the ``pocketsphinx`` package from PyPI, BSD licence; its wheel carries CMU's
US English acoustic model and pronouncing dictionary, for x86-64 and the Pi's aarch64) decodes
each utterance the listener cuts out against a grammar of the game's phrases only, the legal
ones weighted up (:class:`~companion.voice.phrases.Vocabulary`). A grammar always finds its
best phrase, even in a sentence of table talk, so the phrase is kept only when it explains the
sound nearly as well as a free decoding of the same sound into English phones does (the
likelihood ratio per frame, :attr:`Decision.ratio`; where the line lies is the sensitivity
setting), no word is stretched or squeezed past what speech does (:attr:`Decision.stretch`),
and a loop of everyday words (companion/voice/talk.txt, with the game's own) does not explain
it clearly better than the phrase (:attr:`Decision.talk`: a sentence of table talk that holds
the game's words is such words, not a call).

The decoders load in about 0.2 s and hold about 20 MB; decoding a call of one second takes
15-30 ms of one core here (benchmarks/voice.py).
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from companion.voice.phrases import Heard, Phrase, Vocabulary

log = logging.getLogger(__name__)

RATE = 16000
FRAME_RATE = 100  # PocketSphinx's frames a second
#: Weight of a phrase none of whose calls is legal now, beside 1 for a legal one.
ILLEGAL_WEIGHT = 0.02
#: Beams wide enough that a word the acoustic model finds unusual (a British "parry") is not
#: pruned before its end (the default beams lose it, and the grammar's end with it).
BEAMS = {"beam": 1e-80, "pbeam": 1e-80, "wbeam": 1e-60, "lpbeam": 1e-60, "lponlybeam": 1e-60}
#: Sensitivity 0..1 -> the likelihood ratio per frame a phrase needs (logmath units; higher
#: sensitivity, lower line). Tuned on the tuning voices of benchmarks/voice.py only.
RATIO_AT = {0.0: -20.0, 0.5: -28.0, 1.0: -38.0}
#: Most frames a phone of a word may take (a word stretched over a sentence is no call), and
#: most a phone of the whole phrase may take on average.
MOST_FRAMES_PER_PHONE = 30.0
MOST_FRAMES_PER_PHONE_ON_AVERAGE = 18.0
#: A phrase of few phones ("undo", "leap") is easily found in any noise: it needs this much
#: more likelihood ratio per frame for each phone it has fewer than SHORT_PHONES.
SHORT_PHONES = 6
SHORT_PENALTY = 4.0
#: Most frames of quiet before and after a phrase (the listener cuts utterances with 0.15 s
#: before the speech, and after it up to 0.09 s past the last frame the voice detector found
#: voiced, which the soundtrack's remains may stretch): longer is speech the phrase does not
#: explain ("Watch out ... for the leap card").
MOST_PAUSE_BEFORE = 30
MOST_PAUSE_AFTER = 60
#: How much better per frame the loop of everyday words may explain an utterance than the
#: phrase does (logmath units): more, and it is table talk.
TALK_LINE = -2.0
#: Fewest frames a word's phones take on average (squeezed: not that word).
LEAST_FRAMES_PER_PHONE = 3.0


def ratio_line(sensitivity: float) -> float:
    """The likelihood ratio per frame a phrase needs at ``sensitivity`` (0..1), interpolated
    between the tuned points of :data:`RATIO_AT`."""
    s = min(1.0, max(0.0, float(sensitivity)))
    points = sorted(RATIO_AT.items())
    for (s0, r0), (s1, r1) in itertools.pairwise(points):
        if s <= s1:
            return r0 + (r1 - r0) * (s - s0) / (s1 - s0)
    return points[-1][1]


@dataclass(frozen=True)
class Decision:
    """What the recogniser made of one utterance: the phrase's words (empty when the grammar
    found none), the likelihood ratio per frame against free phones, the most and least frames
    a phone took in any word, whether it was kept, and why not."""

    words: tuple[str, ...]
    ratio: float
    stretch: float
    squeeze: float
    frames: int
    kept: bool
    why: str = ""
    talk: float = 0.0


def _talk_words() -> set[str]:
    """Everyday words (companion/voice/talk.txt)."""
    text = resources.files("companion.voice").joinpath("talk.txt").read_text("utf-8")
    return {w for line in text.splitlines() if not line.startswith("#") for w in line.split()}


def _dictionary_words() -> dict[str, list[str]]:
    """The companion's own pronunciations (companion/voice/words.dict)."""
    out: dict[str, list[str]] = {}
    text = resources.files("companion.voice").joinpath("words.dict").read_text("utf-8")
    for line in text.splitlines():
        word, _, phones = line.strip().partition(" ")
        if word and phones:
            out.setdefault(word.split("(")[0], []).append(phones.strip())
    return out


class Recogniser:
    """PocketSphinx restricted to a vocabulary's phrases, with a check against free phones.

    ``sensitivity`` 0..1: how readily a phrase is believed (see :data:`RATIO_AT`).
    """

    def __init__(self, sensitivity: float = 0.5) -> None:
        import pocketsphinx as ps

        self._ps = ps
        self.sensitivity = sensitivity
        model = ps.get_model_path("en-us/en-us")
        words = ps.get_model_path("en-us/cmudict-en-us.dict")
        self._grammar = ps.Decoder(ps.Config(hmm=model, dict=words, lm=None, loglevel="FATAL",
                                             fsgusefiller=False, bestpath=False, **BEAMS))
        self._phones = ps.Decoder(ps.Config(hmm=model, dict=words, lm=None, loglevel="FATAL",
                                            bestpath=False))
        self._phones.add_allphone_file("phones", None)
        self._phones.activate_search("phones")
        self._talk = ps.Decoder(ps.Config(hmm=model, dict=words, lm=None, loglevel="FATAL",
                                          fsgusefiller=False, bestpath=False))
        self._talk_words: set[str] = set()
        self._known: set[str] = set()
        self._version: tuple[str, int] | None = None
        self._phrases: dict[tuple[str, ...], Phrase] = {}
        self.missing: set[str] = set()
        for word, prons in _dictionary_words().items():
            self._add_word(word, prons)
        for decoder in (self._grammar, self._talk):
            decoder.add_word("pause_", "SIL", False)

    @property
    def line(self) -> float:
        return ratio_line(self.sensitivity)

    def _add_word(self, word: str, prons: list[str]) -> None:
        have = self._grammar.lookup_word(word)
        for i, phones in enumerate(prons):
            name = word if i == 0 else f"{word}({i + 1})"
            if i == 0 and have is not None:
                if have.split() == phones.split():
                    continue
                name = f"{word}(9)"  # an extra pronunciation beside the dictionary's
            for decoder in (self._grammar, self._talk):
                try:
                    decoder.add_word(name, phones, False)
                except RuntimeError:
                    log.warning("voice: pronunciation %s %s not added", name, phones)
        self._known.add(word)

    def knows(self, word: str) -> bool:
        return word in self._known or self._grammar.lookup_word(word) is not None

    def use(self, vocabulary: Vocabulary) -> None:
        """Listen for ``vocabulary`` from now on (its grammar is built when it changed)."""
        key = (vocabulary.game, vocabulary.version)
        if key == self._version:
            return
        for word, phones in vocabulary.words.items():
            if not self.knows(word):
                self._add_word(word, [phones])
        phrases = [p for p in vocabulary.phrases if all(self.knows(w) for w in p.words)]
        missing = {w for p in vocabulary.phrases for w in p.words if not self.knows(w)}
        if missing - self.missing:
            log.warning("voice: no pronunciation for %s: phrases with them are not heard "
                        "(add them to words.dict, docs/voice.md)", ", ".join(sorted(missing)))
        self.missing |= missing
        self._phrases = {p.words: p for p in phrases}
        self._version = key
        if not phrases:
            return
        alternatives = []
        for p in phrases:
            weight = 1.0 if p.legal else ILLEGAL_WEIGHT
            alternatives.append(f"/{weight:g}/ " + " ".join(p.words))
        # a little silence before and after the phrase (never inside it: a word said in a
        # sentence must not hide in a pause)
        jsgf = ("#JSGF V1.0;\ngrammar calls;\npublic <utterance> = [pause_] <phrase> [pause_];\n"
                "<phrase> = " + "\n | ".join(alternatives) + ";\n")
        self._grammar.add_jsgf_string("calls", jsgf)
        self._grammar.activate_search("calls")
        talk = _talk_words() | {w for p in phrases for w in p.words}
        talk = {w for w in talk if self.knows(w)}
        if talk != self._talk_words:
            self._talk_words = talk
            self._talk.add_jsgf_string(
                "talk", "#JSGF V1.0;\ngrammar talk;\npublic <talk> = [pause_] <word>+ "
                "[pause_];\n<word> = " + " | ".join(sorted(talk)) + ";\n")
            self._talk.activate_search("talk")

    @property
    def phrases(self) -> dict[tuple[str, ...], Phrase]:
        """The phrases the grammar holds now (by words)."""
        return self._phrases

    def decide(self, samples: np.ndarray) -> Decision:
        """Decode one utterance (float32 mono at 16 kHz, trimmed to the speech with a short
        margin) into the phrase it is, or none."""
        if not self._phrases:
            return Decision((), -math.inf, 0.0, 0.0, 0, False, "no phrase is listened for")
        pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).astype(np.int16).tobytes()
        g = self._grammar
        g.start_utt()
        g.process_raw(pcm, full_utt=True)
        g.end_utt()
        frames = int(g.n_frames())
        hyp = g.hyp()
        if hyp is None or not hyp.hypstr.strip():
            return Decision((), -math.inf, 0.0, 0.0, frames, False, "no phrase fits")
        words, grammar_score, stretch, squeeze, average, phones, pause = \
            self._read_segments(g)
        p = self._phones
        p.start_utt()
        p.process_raw(pcm, full_utt=True)
        p.end_utt()
        phone_score = self._score(p)
        ratio = (grammar_score - phone_score) / max(frames, 1)
        if words not in self._phrases:
            return Decision(words, ratio, stretch, squeeze, frames, False,
                            "the words are not a whole phrase")
        if pause[0] > MOST_PAUSE_BEFORE or pause[1] > MOST_PAUSE_AFTER:
            return Decision(words, ratio, stretch, squeeze, frames, False,
                            f"{pause[0]} and {pause[1]} frames of sound before and after "
                            "the phrase")
        if stretch > MOST_FRAMES_PER_PHONE or average > MOST_FRAMES_PER_PHONE_ON_AVERAGE:
            return Decision(words, ratio, stretch, squeeze, frames, False, "a word stretched")
        if squeeze < LEAST_FRAMES_PER_PHONE:
            return Decision(words, ratio, stretch, squeeze, frames, False, "a word squeezed")
        line = self.line + SHORT_PENALTY * max(0, SHORT_PHONES - phones)
        if ratio < line:
            return Decision(words, ratio, stretch, squeeze, frames, False,
                            f"not sure enough ({ratio:.0f} < {line:.0f})")
        t = self._talk
        t.start_utt()
        t.process_raw(pcm, full_utt=True)
        t.end_utt()
        talk = (grammar_score - self._score(t)) / max(frames, 1)
        if talk < TALK_LINE:
            said = t.hyp().hypstr if t.hyp() is not None else ""
            return Decision(words, ratio, stretch, squeeze, frames, False,
                            f"table talk ({said!r}: {talk:.1f} < {TALK_LINE:g})", talk)
        return Decision(words, ratio, stretch, squeeze, frames, True, "", talk)

    def confidence(self, decision: Decision) -> float:
        """0..1: how far above the line a decision's likelihood ratio is (0.5 on it)."""
        return round(1.0 / (1.0 + math.exp(-(decision.ratio - self.line) / 6.0)), 3)

    def hear(self, samples: np.ndarray, start: float) -> Heard | None:
        """The phrase heard in an utterance starting at ``start`` (seconds), or None."""
        d = self.decide(samples)
        if not d.kept:
            return None
        return Heard(d.words, start, start + len(samples) / RATE, self.confidence(d))

    def _score(self, decoder: Any) -> float:
        total = 0.0
        for s in decoder.seg() or ():
            if s.end_frame < s.start_frame:
                continue
            total += decoder.logmath.log(s.ascore) if s.ascore > 0 else -1e7
        return total

    def _read_segments(self, decoder: Any
                       ) -> tuple[tuple[str, ...], float, float, float, float, int,
                                  tuple[int, int]]:
        """The words, the total acoustic score, the most and least frames a phone took in a
        word, the frames a phone took on average over the words, the phones, and the longest
        quiet before or after."""
        words: list[str] = []
        total = 0.0
        stretch = 0.0
        squeeze = math.inf
        phones_in = 0
        frames_in = 0
        before = after = 0
        for s in decoder.seg() or ():
            if s.end_frame < s.start_frame:
                continue
            total += decoder.logmath.log(s.ascore) if s.ascore > 0 else -1e7
            word = s.word.split("(")[0]
            if word == "pause_":
                if words:
                    after = s.end_frame - s.start_frame + 1
                else:
                    before = s.end_frame - s.start_frame + 1
            if word.startswith(("<", "[")) or word in ("", "pause_"):
                continue
            words.append(word)
            phones = decoder.lookup_word(s.word) or decoder.lookup_word(word) or word
            n = max(1, len(phones.split()))
            per = (s.end_frame - s.start_frame + 1) / n
            stretch = max(stretch, per)
            squeeze = min(squeeze, per)
            phones_in += n
            frames_in += s.end_frame - s.start_frame + 1
        average = frames_in / max(1, phones_in)
        return (tuple(words), total, stretch, squeeze if words else 0.0, average, phones_in,
                (before, after))


__all__ = ["BEAMS", "ILLEGAL_WEIGHT", "RATIO_AT", "Decision", "Recogniser", "ratio_line"]
