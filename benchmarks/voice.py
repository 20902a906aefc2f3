"""Voice calls measured: calls heard right over the soundtrack, calls heard from the soundtrack
and table talk alone, the time from the end of a call to the call heard, and the processor.

Run: .venv/bin/python benchmarks/voice.py [--voices test|tune] [--calls N] [--only WHAT]
Needs Debian's espeak-ng, flite and sox (apt-get install espeak-ng flite sox): voices are
synthesised on the fly (kept in a cache folder, --cache).

Figures printed (docs/voice.md and the README carry them):
- calls: scripted Eye for an Eye rounds of 3 players, each call said by a voice (the test
  voices by default: never tuned on, benchmarks/voicelab.py), over the companion's soundtrack
  heard through a simulated room 10 dB below the voices, the announcer at its cues; the
  listener, the recogniser and the rules' legality as the app runs them. Exact: the call heard
  is the call said (a call several players could say, heard with the one who said it among
  those the table asks, is counted apart); wrong: another call the rules take; refused: a call
  the rules refuse (cancelled by the legality rule); missed: nothing heard.
- soundtrack: 30 minutes of the drum loop and the announcer (rounds of 180 s), no voice: calls
  heard (with the speaker's signal subtracted, as in the app, and without, for comparison);
- talk: 10 minutes of table talk holding the game's words, over the soundtrack: calls heard;
- latency: paced in real time, from the end of a call's last sound to the listener's answer;
- cpu: processor seconds per second of sound while listening through a round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.append(str(Path(__file__).resolve().parent))  # voicelab (after the packages)


from voicelab import CHATTER, TEST_VOICES, TUNE_VOICES, Table, Voice, build_table, say, write_wav

import rules
from companion.games.eye_for_an_eye.voice import EyeVoice
from companion.voice.listener import Listener, Skipped
from companion.voice.phrases import Heard, read_heard
from companion.voice.recogniser import Recogniser
from hardware.audio.played import Played
from hardware.audio.sounds import builtin_sound
from hardware.microphone import RATE, ReplayMicrophone
from rules.eye_for_an_eye.calls import Act, Land, Ready, Unblockable

PLAYERS = ("Ana", "Ben", "Cy")
ROUND = 180.0
#: A match long enough for the calls scripted (its rounds timed on the recording's clock).
OPTIONS = {"rounds": 9, "round_seconds": 3600.0}


def round_cues(length: float) -> list[tuple[str, float]]:
    """The announcer's cues of back-to-back rounds of ROUND seconds."""
    cues = []
    t = 0.0
    while t < length:
        cues += [("yarra_mark", t), ("one_minute", t + ROUND - 60), ("ten_seconds",
                                                                      t + ROUND - 10),
                 ("yarra_bung", t + ROUND)]
        t += ROUND
    return [(n, at) for n, at in cues if at < length]


def played_for(table: Table) -> Played:
    """The speaker's timeline of a recorded table (its clock: the recording's seconds)."""
    played = Played(RATE, clock=lambda: 0.0)
    if table.soundtrack is not None:
        played.started(builtin_sound(table.soundtrack), level=0.8, loop=True, at=0.0)
    for name, at in table.cues:
        played.started(builtin_sound(name), level=0.8, speech=True, at=at)
    return played


def said_in(table: Table, start: float, end: float, offset: float = 0.0) -> int | None:
    """The utterance of ``table`` that overlaps [start, end] most (times on the listener's
    clock, ``offset`` ahead of the recording's), or None."""
    best, most = None, 0.0
    for k, s in enumerate(table.spoken):
        overlap = min(end, s.end + offset) - max(start, s.start + offset)
        if overlap > most:
            best, most = k, overlap
    return best


def sayable(call: object) -> bool:
    return isinstance(call, Act | Ready | Unblockable)


def script(seed: int, n: int) -> list[tuple[str, str, list[str]]]:
    """``n`` calls of a random legal Eye for an Eye round: (words said, the call, the silent
    calls after it: hits landing when no parry came)."""
    rng = random.Random(seed)
    game = rules.new_game("eye-for-an-eye", list(PLAYERS), OPTIONS, seed=seed)
    voice = EyeVoice(game)
    out: list[tuple[str, str, list[str]]] = []
    t = 1.0
    while len(out) < n:
        if game.state.phase != "playing":
            game.apply("Next round")
            t = 1.0
            continue
        legal = [c for c in game.legal_calls() if sayable(c)]
        parries = [c for c in legal if isinstance(c, Act) and c.key == "defence"]
        weights = []
        for c in legal:
            if c in parries:
                weights.append(40.0)
            elif isinstance(c, Act) and c.target is not None:
                weights.append(0.3 if c.rear else 3.0)
            elif isinstance(c, Ready):
                weights.append(1.0)
            else:
                weights.append(1.0)
        call = rng.choices(legal, weights)[0]
        phrases = [p for p in voice.vocabulary().phrases if call in p.calls]
        clear = [p for p in phrases if len([c for c in p.calls if game.is_legal(c, t)]) == 1]
        words = " ".join(rng.choice(clear or phrases).words)
        game.apply(call, t)
        t += 2.0
        silent: list[str] = []
        if game.pending() and rng.random() < 0.5:  # no parry: the window shuts
            for p in game.pending():
                silent.append(str(Land(p.figure)))
                game.apply(Land(p.figure), t)
                if game.state.phase != "playing":
                    break
        out.append((words, str(call), silent))
    return out


def measure_calls(voices: Sequence[str], n: int, seed: int, cache: Path, *,
                  music_db: float = 10.0, verbose: bool = False) -> dict[str, int]:
    """Scripted calls said by ``voices`` in turn over the soundtrack (see the docstring)."""
    lines = script(seed, n)
    parts = []
    for i, (words, truth, _) in enumerate(lines):
        v = Voice.parse(voices[i % len(voices)])
        parts.append((say(words, v, cache), words, truth))
    table = build_table(parts, soundtrack="drum_loop", cues=round_cues(10_000), seed=seed,
                        music_db=music_db, gaps=(1.5, 2.5))
    game = rules.new_game("eye-for-an-eye", list(PLAYERS), OPTIONS, seed=seed)
    voice = EyeVoice(game)
    def skipped(sk: Skipped) -> None:
        i = said_in(table, sk.start, sk.end)
        if verbose and i is not None:
            print(f"  not taken in {lines[i][0]!r}: {sk.start:.2f}-{sk.end:.2f} s "
                  f"(said {table.spoken[i].start:.2f}-{table.spoken[i].end:.2f}): {sk.why}",
                  flush=True)

    listener = Listener(Recogniser(), played=played_for(table), on_skip=skipped)
    listener.use(voice.vocabulary())
    counts = {"said": len(lines), "exact": 0, "asked": 0, "wrong": 0, "refused": 0,
              "missed": 0, "extra": 0}
    results: list[list[str]] = [[] for _ in lines]
    next_i = 0

    def apply_truth(i: int) -> None:
        """The table goes on as the script says once utterance ``i`` was taken (or missed)."""
        _, truth, silent = lines[i]
        if game.state.phase != "playing":
            game.apply("Next round")
        game.apply(truth, table.spoken[i].end)
        for s in silent:
            if game.state.phase == "playing":
                game.apply(s, table.spoken[i].end + 0.1)
        if game.state.phase == "between-rounds":  # the table starts the next round at once
            game.apply("Next round")
        listener.use(voice.vocabulary())

    def settle(upto: float) -> None:
        """Utterances not heard by ``upto`` (1.2 s after their end) are missed: go on."""
        nonlocal next_i
        while next_i < len(lines) and table.spoken[next_i].end + 1.2 < upto:
            apply_truth(next_i)
            next_i += 1

    block = 320
    for start in range(0, len(table.mic) - block, block):
        t = start / RATE
        settle(t)
        from hardware.microphone.base import Block

        for h in listener.hear(Block(table.mic[start:start + block], t, start)):
            i = said_in(table, h.start, h.end)
            if i is None or i < next_i:  # between calls, or a second phrase in one call
                counts["extra"] += 1
                if verbose:
                    print(f"  heard {h.text!r} between calls at {h.end:.1f} s", flush=True)
                continue
            while next_i < i:  # calls before this one were missed
                apply_truth(next_i)
                next_i += 1
            heard = read_heard(h, voice.vocabulary(), game, voice, h.end)
            if heard is None:
                continue
            truth = lines[i][1]
            kinds = [str(c) for c in heard.calls]
            if heard.table is not None:
                results[i].append("wrong")
            elif not kinds:
                results[i].append("refused")
            elif truth in kinds:
                results[i].append("exact" if len(kinds) == 1 else "asked")
            else:
                results[i].append("wrong")
            if verbose and kinds != [truth]:
                print(f"  {lines[i][0]!r} ({truth}) by {voices[i % len(voices)]}: heard "
                      f"{heard.said!r} -> {kinds or heard.refused}", flush=True)
            apply_truth(i)
            next_i = i + 1
    for i, r in enumerate(results):
        if not r:
            counts["missed"] += 1
            if verbose:
                print(f"  missed {lines[i][0]!r} by {voices[i % len(voices)]}", flush=True)
        else:
            counts[r[0]] += 1
    return counts


def false_calls(table: Table, *, subtract: bool = True) -> tuple[int, list[Heard]]:
    """Calls heard in a recording where nobody calls (the speaker's signal subtracted as in
    the app unless ``subtract`` is False)."""
    game = rules.new_game("eye-for-an-eye", list(PLAYERS))
    voice = EyeVoice(game)
    listener = Listener(Recogniser(), played=played_for(table) if subtract else None)
    listener.use(voice.vocabulary())
    from hardware.microphone.base import Block

    heard: list[Heard] = []
    block = 320
    for start in range(0, len(table.mic) - block, block):
        heard += listener.hear(Block(table.mic[start:start + block], start / RATE, start))
    return listener.utterances, heard


def measure_soundtrack(minutes: float, *, subtract: bool = True) -> None:
    length = minutes * 60.0
    table = build_table([], soundtrack="drum_loop", cues=round_cues(length), lead=length,
                        music_db=10.0)
    t0 = time.process_time()
    cut, heard = false_calls(table, subtract=subtract)
    cpu = time.process_time() - t0
    how = "subtracted" if subtract else "NOT subtracted"
    print(f"soundtrack and announcer alone, {minutes:g} min, speaker's signal {how}: "
          f"{len(heard)} calls heard ({cut} utterances cut out and refused); "
          f"cpu {cpu / length * 100:.1f}% of one core", flush=True)
    for h in heard:
        print(f"  heard {h.text!r} at {h.end:.1f} s", flush=True)


def measure_talk(minutes: float, voices: Sequence[str], cache: Path, seed: int) -> None:
    rng = random.Random(seed)
    parts = []
    total = 0.0
    i = 0
    while total < minutes * 60.0:
        text = CHATTER[i % len(CHATTER)]
        v = Voice.parse(voices[rng.randrange(len(voices))])
        samples = say(text, v, cache)
        parts.append((samples, text, ""))
        total += len(samples) / RATE + 1.5
        i += 1
    table = build_table(parts, soundtrack="drum_loop", cues=round_cues(10_000), seed=seed,
                        gaps=(0.8, 2.0))
    cut, heard = false_calls(table)
    print(f"table talk, {total / 60:.1f} min ({len(parts)} sentences by {len(voices)} voices) "
          f"over the soundtrack: {len(heard)} calls heard ({cut} utterances cut out)",
          flush=True)
    for h in heard:
        i = said_in(table, h.start, h.end)
        said = table.spoken[i].text if i is not None else "(between sentences)"
        print(f"  heard {h.text!r} in {said!r}", flush=True)


def measure_latency(voices: Sequence[str], cache: Path, n: int, seed: int) -> None:
    """Real time: blocks fed at the microphone's pace on one thread, the listener on another,
    as in the app; from a call's last sound to its phrase heard."""
    lines = script(seed, n)
    parts = [(say(w, Voice.parse(voices[i % len(voices)]), cache), w, truth)
             for i, (w, truth, _) in enumerate(lines)]
    table = build_table(parts, soundtrack="drum_loop", cues=(), seed=seed, gaps=(1.0, 1.5),
                        lead=3.0)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.wav"
        write_wav(path, table.mic)
        game = rules.new_game("eye-for-an-eye", list(PLAYERS), OPTIONS, seed=seed)
        voice = EyeVoice(game)
        played = Played(RATE)
        listener = Listener(Recogniser(), played=played)
        listener.use(voice.vocabulary())
        delays: list[float] = []
        mic = ReplayMicrophone([path], realtime=True)
        mic.open()
        t0 = mic.read(0.0)
        assert t0 is not None
        start = t0.t
        played.started(builtin_sound("drum_loop"), level=0.8, loop=True, at=start)
        stop = threading.Event()
        cpu0 = time.process_time()
        while not stop.is_set():
            block = mic.read(0.1)
            if block is None:
                break
            for h in listener.hear(block):
                now = time.monotonic()
                i = said_in(table, h.start, h.end, start)
                if i is not None:
                    delays.append(now - (start + table.spoken[i].end))
        cpu = time.process_time() - cpu0
        mic.close()
    print(f"  ({listener.utterances} utterances, {len(delays)} heard)", flush=True)
    if delays:
        print(f"latency, end of the call to the phrase heard, real time ({len(delays)} of "
              f"{len(lines)} calls heard): median {statistics.median(delays) * 1000:.0f} ms, "
              f"worst {max(delays) * 1000:.0f} ms; listening cpu "
              f"{cpu / (len(table.mic) / RATE) * 100:.1f}% of one core", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voices", choices=("test", "tune"), default="test")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--only", choices=("calls", "soundtrack", "talk", "latency"))
    ap.add_argument("--soundtrack-minutes", type=float, default=30.0)
    ap.add_argument("--talk-minutes", type=float, default=10.0)
    ap.add_argument("--music-db", type=float, default=10.0)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/companion-voices"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    voices = TEST_VOICES if args.voices == "test" else TUNE_VOICES
    if args.only in (None, "calls"):
        t0 = time.process_time()
        c = measure_calls(voices, args.calls, args.seed, args.cache, music_db=args.music_db,
                          verbose=args.verbose)
        exact = c["exact"] + c["asked"]
        print(f"calls over the soundtrack {args.music_db:g} dB below, {args.voices} voices "
              f"({', '.join(voices)}): {exact} of {c['said']} exact "
              f"({exact / c['said'] * 100:.1f}%; {c['asked']} of them asked who), "
              f"{c['wrong']} wrong calls the rules take, {c['refused']} refused by the rules, "
              f"{c['missed']} missed, {c['extra']} heard between calls "
              f"[{time.process_time() - t0:.0f} s cpu]", flush=True)
    if args.only in (None, "soundtrack"):
        measure_soundtrack(args.soundtrack_minutes)
        if args.only == "soundtrack":
            measure_soundtrack(min(args.soundtrack_minutes, 5.0), subtract=False)
    if args.only in (None, "talk"):
        measure_talk(args.talk_minutes, voices, args.cache, args.seed)
    if args.only in (None, "latency"):
        measure_latency(voices, args.cache, 30, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
