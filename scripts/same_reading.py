"""Do two runs of `companion read --json` show a player the same dice? (scripts/pi-check.sh)

The arm64 check compares what the companion reads on an emulated Raspberry Pi with this
machine's reading of the same photos. Floating point on another processor moves a confidence in
its third decimal (0.705 against 0.704), which no player ever sees; what a player sees is each
die's value and face, its colour, and where it lies (to the pixel, on an 800x480 screen much
less). So the two are the same when every photo has the same dice in the same order with the
same value, face and colour, centres within :data:`CENTRE_PX`, and the same error if any; the
time taken (``ms``) and the confidences are not compared (their largest difference is said).

    python3 scripts/same_reading.py X86.jsonl ARM64.jsonl

Prints one line when they are the same, else each difference; exits 0 when they are the same,
1 when they differ, 2 when a file cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: How far apart (pixels, in the photo) two readings of one die's centre may be.
CENTRE_PX = 2.0


def load(path: Path) -> list[dict[str, Any]]:
    """The readings of a `companion read --json` output, one per photo."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def seen(die: dict[str, Any]) -> tuple[Any, Any, Any]:
    return die.get("value"), die.get("face"), die.get("colour")


def differences(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> tuple[list[str], float]:
    """What a player would see differ between readings ``a`` and ``b`` (empty: nothing), and
    the largest confidence difference (not a difference a player sees)."""
    out: list[str] = []
    most = 0.0
    if [r.get("image") for r in a] != [r.get("image") for r in b]:
        return [f"other photos: {[r.get('image') for r in a]} vs "
                f"{[r.get('image') for r in b]}"], most
    for ra, rb in zip(a, b, strict=True):
        name = Path(str(ra.get("image"))).name
        if ra.get("error") != rb.get("error"):
            out.append(f"{name}: error {ra.get('error')!r} vs {rb.get('error')!r}")
            continue
        da, db = ra.get("dice") or [], rb.get("dice") or []
        if len(da) != len(db):
            out.append(f"{name}: {len(da)} dice vs {len(db)}")
            continue
        for i, (x, y) in enumerate(zip(da, db, strict=True)):
            if seen(x) != seen(y):
                out.append(f"{name}: die {i + 1}: value, face, colour {seen(x)} vs {seen(y)}")
            (ax, ay), (bx, by) = x.get("center", (0, 0)), y.get("center", (0, 0))
            if max(abs(ax - bx), abs(ay - by)) > CENTRE_PX:
                out.append(f"{name}: die {i + 1}: at ({ax}, {ay}) vs ({bx}, {by})")
            most = max(most, abs(float(x.get("confidence", 0)) - float(y.get("confidence", 0))))
    return out, most


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], "\nusage: same_reading.py A.jsonl B.jsonl",
              file=sys.stderr)
        return 2
    try:
        a, b = load(Path(argv[0])), load(Path(argv[1]))
    except (OSError, ValueError) as e:
        print(f"same_reading: cannot read the readings: {e}", file=sys.stderr)
        return 2
    found, most = differences(a, b)
    if found:
        print("\n".join(found))
        return 1
    dice = sum(len(r.get("dice") or []) for r in a)
    print(f"the same for a player: {len(a)} photos, {dice} dice (value, face, colour, centre "
          f"within {CENTRE_PX:g} px); confidences differ by at most {most:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
