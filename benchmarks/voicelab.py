"""Synthetic voices at a simulated table, for measuring the voice calls (benchmarks/voice.py)
and making the tests' small recordings (scripts/voice_fixtures.py).

Voices come from two synthesisers of Debian's (apt-get install espeak-ng flite sox): espeak-ng
(formant synthesis, many accents and variants) and flite (CMU's diphone and clustergen voices:
another synthesiser altogether). :data:`TUNE_VOICES` are the only voices the recogniser's
settings were tuned on; :data:`TEST_VOICES` are measured only.

The table: the companion's speaker plays the soundtrack (and the announcer at its cues); the
microphone hears it delayed and coloured by the room (a 60 ms path, a decaying tail, a
speaker that clips softly), with the players' voices on top, the soundtrack's level set
``music_db`` below the voice's (the issue's condition: 10 dB below).
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.audio.decode import load_mono
from hardware.audio.sounds import builtin_sound

RATE = 16000

#: The voices the recogniser was tuned on (synthesiser:voice@words a minute).
TUNE_VOICES = ("espeak:en-us+m1@150", "espeak:en-us+f2@175", "espeak:en-gb+m4@160",
               "espeak:en-us+m3@185")
#: Voices never tuned on: flite's (another synthesiser) and other espeak-ng accents.
TEST_VOICES = ("flite:slt@160", "flite:rms@150", "flite:awb@170", "flite:kal16@165",
               "espeak:en-gb-scotland+f4@150", "espeak:en-029+m6@170",
               "espeak:en-us-nyc+m7@160", "espeak:en-gb-x-rp+f3@180")

#: Table talk holding the game's words in ordinary sentences (never a call on its own).
CHATTER = (
    "I'm going to parry that next time", "did you see that spear thrust", "my movement is "
    "terrible today", "he always attacks me first", "can I heal now or not", "watch out for "
    "the leap card", "three dice on parry is too many", "Hydris is winning again", "pass me "
    "the dice please", "that was a good round", "who is next", "I need more sixes", "you "
    "should have parried that", "heal yourself before you attack", "Grubic is my favourite "
    "chief", "let me think about it", "the soundtrack is too loud", "two more rounds to go",
    "I want to ready my leap", "one more attack and you're out", "Riparian never parries",
    "is it my turn to roll", "I rolled three movement again", "Banksia has two dice left",
    "why did you attack me", "that spear thrust was brutal", "hold on I lost a die", "how many "
    "health do you have", "she keeps healing", "I'll leap over the rock", "watch your back",
    "undo is for cowards", "nice parry", "the leap card is so good", "let's play another "
    "round", "where is the victory cup", "the movement dice are all sixes", "Palaudis is the "
    "best tribe", "I think the attack missed", "give me a second", "put three dice on the "
    "attack", "my parry needs two dice", "he rolled five heals", "the rear arc is behind you",
    "from the rear that hurt", "I'm out of dice", "ready when you are", "are you ready to "
    "leap", "I should move first", "stop attacking Grubic", "two hits on me already", "count "
    "your health tokens", "the round is almost over", "who has the most points", "that was a "
    "lucky roll", "my turn to heal", "I'm saving my dice", "you can't parry from behind",
    "the clock is running", "let me see the rules", "Floris looks weak", "spear thrust is "
    "Grubic's attack", "parry is the defence", "one minute left", "ten seconds to go",
    "I'd rather heal than attack", "pick up your dice", "pass the cup please",
)


@dataclass(frozen=True)
class Voice:
    synth: str  # "espeak" or "flite"
    name: str
    speed: int

    @classmethod
    def parse(cls, spec: str) -> Voice:
        synth, _, rest = spec.partition(":")
        name, _, speed = rest.partition("@")
        return cls(synth, name, int(speed or 160))

    def __str__(self) -> str:
        return f"{self.synth}:{self.name}@{self.speed}"


def say(text: str, voice: Voice, cache: Path | None = None) -> np.ndarray:
    """``text`` spoken by ``voice``, float32 mono at 16 kHz, trimmed of silence."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    key = f"{voice.synth}_{voice.name}_{voice.speed}_{digest}.wav"
    if cache is not None and (cache / key).exists():
        return load_mono(cache / key, RATE)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        if voice.synth == "espeak":
            cmd = ["espeak-ng", "-v", voice.name, "-s", str(voice.speed), "-w", str(raw), text]
        elif voice.synth == "flite":
            stretch = f"{175 / voice.speed:.2f}"
            cmd = ["flite", "-voice", voice.name, "--setf", f"duration_stretch={stretch}",
                   "-t", text, "-o", str(raw)]
        else:
            raise ValueError(f"unknown synthesiser {voice.synth!r}")
        subprocess.run(cmd, check=True, capture_output=True)
        out = Path(tmp) / "out.wav"
        subprocess.run(["sox", "-D", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(out),
                        "silence", "1", "0.02", "0.5%", "reverse", "silence", "1", "0.02",
                        "0.5%", "reverse", "norm", "-3"], check=True, capture_output=True)
        samples = load_mono(out, RATE)
        if cache is not None:
            cache.mkdir(parents=True, exist_ok=True)
            os.replace(out, cache / key)
    return samples


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0


def room(signal: np.ndarray, seed: int = 7) -> np.ndarray:
    """What the microphone hears of what the speaker plays: a 60 ms path, a decaying tail
    (about 250 ms), a speaker that clips softly."""
    rng = np.random.default_rng(seed)
    h = np.zeros(int(0.25 * RATE))
    d0 = int(0.06 * RATE)
    tail = rng.standard_normal(len(h) - d0) * np.exp(-np.arange(len(h) - d0) / (0.04 * RATE))
    h[d0:] = tail / np.abs(tail).sum() * 1.5
    h[d0] += 0.7
    from scipy.signal import fftconvolve

    wet = fftconvolve(signal, h)[:len(signal)]
    return (np.tanh(wet * 1.5) / 1.5).astype(np.float32)


@dataclass(frozen=True)
class Spoken:
    """One utterance placed in a recording: its words, the truth it stands for, where."""

    text: str
    start: float
    end: float
    truth: str  # the call's text, or "" for table talk


@dataclass
class Table:
    """A recording of a table: the microphone's samples, what was said when, and what the
    speaker played when (soundtrack from 0, looping; announcer cues at their times)."""

    mic: np.ndarray
    spoken: list[Spoken]
    soundtrack: str | None
    cues: list[tuple[str, float]]


def speaker_signal(length: int, soundtrack: str | None, cues: Sequence[tuple[str, float]]
                   ) -> np.ndarray:
    """What the speaker plays: the soundtrack looped from 0, the announcer's cues on top."""
    out = np.zeros(length, dtype=np.float32)
    if soundtrack is not None:
        music = load_mono(builtin_sound(soundtrack), RATE)
        reps = length // len(music) + 1
        out += np.tile(music, reps)[:length] * 0.8
    for name, at in cues:
        cue = load_mono(builtin_sound(name), RATE) * 0.8
        i = int(at * RATE)
        n = min(len(cue), length - i)
        if n > 0:
            out[i:i + n] += cue[:n]
    return out


def build_table(parts: Sequence[tuple[np.ndarray, str, str]], *, soundtrack: str | None,
                cues: Sequence[tuple[str, float]] = (), music_db: float = 10.0,
                gaps: tuple[float, float] = (1.2, 2.5), lead: float = 6.0, seed: int = 0,
                noise_db: float = -60.0) -> Table:
    """Utterances (samples, text, truth) placed one after another with random gaps, over the
    soundtrack heard through the room ``music_db`` below the voices."""
    rng = random.Random(seed)
    t = lead
    placed: list[tuple[int, np.ndarray, Spoken]] = []
    for samples, text, truth in parts:
        start = int(t * RATE)
        placed.append((start, samples, Spoken(text, t, t + len(samples) / RATE, truth)))
        t += len(samples) / RATE + rng.uniform(*gaps)
    length = int((t + 1.0) * RATE)
    voice = np.zeros(length, dtype=np.float32)
    levels = []
    for start, samples, _ in placed:
        voice[start:start + len(samples)] += samples
        levels.append(rms(samples))
    speaker = speaker_signal(length, soundtrack, cues)
    heard = room(speaker)
    voice_level = float(np.median(levels)) if levels else 0.1
    music_level = rms(heard[heard != 0]) if soundtrack is not None else 0.0
    if music_level > 0:
        heard *= voice_level / music_level * 10 ** (-music_db / 20)
    nrng = np.random.default_rng(seed)
    floor = (nrng.standard_normal(length) * 10 ** (noise_db / 20)).astype(np.float32)
    mic = voice + heard + floor
    return Table(mic.astype(np.float32), [p[2] for p in placed], soundtrack, list(cues))


def write_wav(path: Path, samples: np.ndarray) -> None:
    import soundfile

    path.parent.mkdir(parents=True, exist_ok=True)
    soundfile.write(str(path), np.clip(samples, -1, 1), RATE, subtype="PCM_16")


__all__ = ["CHATTER", "RATE", "TEST_VOICES", "TUNE_VOICES", "Spoken", "Table", "Voice",
           "build_table", "room", "say", "speaker_signal", "write_wav"]
