"""Make the small recordings the voice tests hear (tests/companion/files/voice/*.wav), once.

Run: .venv/bin/python scripts/voice_fixtures.py   (needs Debian's espeak-ng and sox)
The recordings are committed, so the tests never depend on a synthesiser or its version; run
this again only to change them. Voices: espeak-ng's en-us+m1 (a voice the recogniser was
tuned on: these check the plumbing, benchmarks/voice.py measures the untuned voices).

- spear-parry.wav: "Spear Thrust three on Hydris", then "Parry two", over the drum loop heard
  through a simulated room 10 dB below the voice, the announcer's "Yarra Mark!" at 0 s
  (heard with ``--playing drum_loop --playing yarra_mark``);
- attack-grubic.wav: "Attack two on Grubic" (Riparian's or Banksia's: the table asks who);
- table-talk.wav: "I'm going to parry that next time", "did you see that spear thrust",
  "watch out for the leap card", over the drum loop (no call in it);
- table-quiet.wav: for the whole-app test, no soundtrack (the app's own speaker plays there):
  "Spear Thrust three on Hydris", "Parry two", "Attack two on Grubic", "Watch out", 2.5 s
  apart, from 1.5 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

here = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(here))
sys.path.append(str(here / "benchmarks"))

from voicelab import Voice, build_table, say, write_wav  # noqa: E402

OUT = here / "tests" / "companion" / "files" / "voice"
VOICE = Voice.parse("espeak:en-us+m1@150")


def main() -> int:
    parts = [(say("Spear Thrust three on Hydris", VOICE), "", ""),
             (say("Parry two", VOICE), "", "")]
    table = build_table(parts, soundtrack="drum_loop", cues=[("yarra_mark", 0.0)], lead=6.0,
                        gaps=(1.6, 1.6), seed=41)
    write_wav(OUT / "spear-parry.wav", table.mic)
    table = build_table([(say("Attack two on Grubic", VOICE), "", "")], soundtrack=None,
                        lead=0.8, seed=42)
    write_wav(OUT / "attack-grubic.wav", table.mic)
    talk = ["I'm going to parry that next time", "did you see that spear thrust",
            "watch out for the leap card"]
    table = build_table([(say(t, VOICE), t, "") for t in talk], soundtrack="drum_loop",
                        lead=6.0, gaps=(1.2, 1.2), seed=43)
    write_wav(OUT / "table-talk.wav", table.mic)
    calls = ["Spear Thrust three on Hydris", "Parry two", "Attack two on Grubic", "Watch out"]
    table = build_table([(say(t, VOICE), t, "") for t in calls], soundtrack=None, lead=1.5,
                        gaps=(2.5, 2.5), seed=44)
    write_wav(OUT / "table-quiet.wav", table.mic)
    for p in sorted(OUT.glob("*.wav")):
        print(p, p.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
