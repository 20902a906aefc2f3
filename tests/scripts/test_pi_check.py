"""scripts/pi-check.sh's comparison of what the companion reads on arm64 with x86 (issue 44,
item 13): what a player sees (values, faces, colours, where each die lies), never the float
digits of a confidence, which another processor moves in the third decimal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "scripts" / "same_reading.py"


def die(value: int | None, colour: str, x: float, y: float, confidence: float) -> dict[str, object]:
    return {"value": value, "face": None if value is None else str(value), "colour": colour,
            "center": [x, y], "confidence": confidence}


X86 = [
    {"image": "photos/IMG_20191208_111228.jpg", "ms": 225.1,
     "dice": [die(6, "green", 106.6, 155.0, 0.968), die(3, "other", 114.7, 228.2, 0.704),
              die(None, "gold", 441.4, 153.1, 0.098)]},
    {"image": "photos/IMG_20191208_111246.jpg", "ms": 101.0, "dice": [die(1, "red", 347.5, 164.9,
                                                                          0.887)]},
]


def compare(tmp_path: Path, arm64: list[dict[str, object]]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "x86").write_text("".join(json.dumps(r) + "\n" for r in X86))
    (tmp_path / "arm64").write_text("".join(json.dumps(r) + "\n" for r in arm64))
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "x86"),
                           str(tmp_path / "arm64")], text=True, capture_output=True, timeout=60)


def emulated(**change: object) -> list[dict[str, object]]:
    """The x86 readings as the emulated Pi gave them: slower, a confidence a digit off."""
    out = json.loads(json.dumps(X86))
    out[0]["ms"], out[1]["ms"] = 10855.0, 8166.0
    out[0]["dice"][1]["confidence"] = 0.705
    out[0]["dice"][0]["center"] = [106.7, 154.9]
    for key, value in change.items():
        out[0]["dice"][1][key] = value
    return out


def test_a_confidence_a_digit_off_is_the_same_reading(tmp_path: Path) -> None:
    done = compare(tmp_path, emulated())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ("the same for a player: 2 photos, 4 dice (value, face, colour, centre "
                           "within 2 px); confidences differ by at most 0.001\n")


def test_what_a_player_sees_differing_is_named(tmp_path: Path) -> None:
    done = compare(tmp_path, emulated(colour="black"))
    assert done.returncode == 1
    assert done.stdout == ("IMG_20191208_111228.jpg: die 2: value, face, colour "
                           "(3, '3', 'other') vs (3, '3', 'black')\n")
    done = compare(tmp_path, emulated(value=4, face="4", center=[120.0, 228.2]))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "IMG_20191208_111228.jpg: die 2: value, face, colour (3, '3', 'other') vs "
        "(4, '4', 'other')",
        "IMG_20191208_111228.jpg: die 2: at (114.7, 228.2) vs (120.0, 228.2)"]
    fewer = emulated()
    fewer[1]["dice"] = []
    assert compare(tmp_path, fewer).stdout == "IMG_20191208_111246.jpg: 1 dice vs 0\n"


def test_an_unreadable_output_is_said(tmp_path: Path) -> None:
    (tmp_path / "x86").write_text("not json\n")
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "x86"),
                           str(tmp_path / "nowhere")], text=True, capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("same_reading: cannot read")


def test_the_pi_check_compares_readings_this_way() -> None:
    """The read step of scripts/pi-check.sh hands both outputs to same_reading.py (it compared
    them byte for byte, and failed on an arm64 root)."""
    text = (ROOT / "scripts/pi-check.sh").read_text()
    read_step = text[text.index("read_step() {"):]
    read_step = read_step[:read_step.index("\n}\n")]
    assert "same_reading.py" in read_step
