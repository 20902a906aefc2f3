"""Contact sheets of every labelled die of the shared photos, for naming body colours by eye.

How ``benchmarks/data/dice_colours.csv`` was made (see ``benchmarks/data/README.md``): this
script cuts each labelled die of ``../shared/data/dice-photos`` (a square 1.4 x its label box,
80 px), groups the dice by a rough body colour (k-means in Lab on the crop's middle, only to
put alike dice side by side), and writes sheets of 12 x 10 numbered crops per group into
``--out``. A person then looks at every sheet and names each die's body colour; the names go
into the CSV, keyed by photo and label line.

    .venv/bin/python scripts/colour_sheets.py --out /tmp/sheets
    .venv/bin/python scripts/colour_sheets.py --out /tmp/sheets \
        --labels benchmarks/data/dice_colours.csv
        # the same sheets, each crop captioned with its label (to check the labels)
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.cnn import body_bgr, crop  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")
TILE = 80
COLS, ROWS = 12, 10


def dice() -> list[tuple[str, int, float, float, float, np.ndarray]]:
    """(photo id, label line, cx, cy, side, 80 px crop) of every labelled die."""
    out = []
    for folder in ("byler-train", "matteop65-train"):
        for jpg in sorted((DATA / folder).glob("*.jpg")):
            img = cv2.imread(str(jpg))
            if img is None:
                continue
            h, w = img.shape[:2]
            lines = jpg.with_suffix(".txt").read_text().split("\n")
            for li, line in enumerate(lines):
                p = line.split()
                if len(p) != 5:
                    continue
                _c, cx, cy, bw, bh = (float(v) for v in p)
                side = max(bw * w, bh * h)
                if folder.startswith("matteop65"):
                    side *= 1.6  # those boxes cover the pips only
                out.append((f"{folder}/{jpg.stem}", li, cx * w, cy * h, side,
                            crop(img, cx * w, cy * h, side, side=TILE, scale=1.4)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--groups", type=int, default=14)
    ap.add_argument("--labels", type=Path, help="caption each crop with its label")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    items = dice()
    names: dict[tuple[str, int], str] = {}
    if args.labels:
        with args.labels.open() as f:
            for row in csv.DictReader(f):
                names[(row["photo"], int(row["line"]))] = row["colour"]
    lab = np.array([cv2.cvtColor(np.uint8([[body_bgr(c[5][20:60, 20:60])]]),
                                 cv2.COLOR_BGR2LAB)[0, 0] for c in items], np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.5)
    cv2.setRNGSeed(7)
    _c, groups, centres = cv2.kmeans(lab, args.groups, None, crit, 5, cv2.KMEANS_PP_CENTERS)
    order = np.argsort(centres[:, 0])  # darkest group first
    index = []
    sheet_no = 0
    for g in order:
        members = [i for i in range(len(items)) if groups[i, 0] == g]
        for start in range(0, len(members), COLS * ROWS):
            page = members[start:start + COLS * ROWS]
            sheet = np.full((ROWS * (TILE + 14), COLS * TILE, 3), 255, np.uint8)
            for k, i in enumerate(page):
                r, c = divmod(k, COLS)
                y, x = r * (TILE + 14), c * TILE
                sheet[y:y + TILE, x:x + TILE] = items[i][5]
                text = str(k) + (" " + names.get(items[i][:2], "?") if args.labels else "")
                cv2.putText(sheet, text, (x + 2, y + TILE + 11), cv2.FONT_HERSHEY_SIMPLEX,
                            0.38, (0, 0, 0), 1, cv2.LINE_AA)
            name = f"sheet{sheet_no:02d}.png"
            cv2.imwrite(str(args.out / name), sheet)
            for k, i in enumerate(page):
                index.append((name, k, *items[i][:5]))
            sheet_no += 1
    with (args.out / "index.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["sheet", "cell", "photo", "line", "cx", "cy", "side"])
        for row in index:
            wr.writerow([row[0], row[1], row[2], row[3], f"{row[4]:.1f}", f"{row[5]:.1f}",
                         f"{row[6]:.1f}"])
    print(f"{len(items)} dice on {sheet_no} sheets in {args.out}")


if __name__ == "__main__":
    main()
