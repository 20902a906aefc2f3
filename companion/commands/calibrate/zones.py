"""The step ``zones``: each player's action spaces on the picture (board games whose dice are
placed on spaces), added, removed, and drawn with the dice read in each."""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands.calibrate.profiles import save, target
from companion.commands.calibrate.values import pair, seat_number
from companion.words import plural


def edit_zones(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from calibration import zones as Z

    cp = target(args)
    zones: tuple[Any, ...] = () if args.clear else cp.zones
    for seat, space in args.remove:
        zones = Z.remove_zone(zones, seat_number(seat), space)
    for item in args.add:
        if len(item) < 5:
            raise ValueError(f"--add {' '.join(item)}: give SEAT SPACE and at least 3 "
                             "corners X,Y")
        pts = tuple(pair(t, ",", f"--add {item[1]!r} corner") for t in item[2:])
        zones = Z.replace_zone(zones, Z.Zone(seat_number(item[0]), item[1], pts))
    for seat, space, box in args.rect:
        try:
            x, y, w, h = (float(v) for v in box.split(","))
        except ValueError as e:
            raise ValueError(f"--rect {space!r}: expected X,Y,W,H, got {box!r}") from e
        zones = Z.replace_zone(zones, Z.rectangle(seat_number(seat), space, x, y, w, h))
    changed = zones != cp.zones
    if changed:
        cp = replace(cp, zones=zones)
    for z in cp.zones:
        corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in z.polygon)
        print(f"seat {z.seat}  {z.space:<16} {corners}")
    if not cp.zones:
        print("no zones (add one with --add SEAT SPACE X,Y X,Y X,Y or --rect)")
    if args.draw is not None:
        import cv2
        import numpy as np

        from vision.read import DiceReader

        image = cv2.imread(str(args.draw), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read image {str(args.draw)!r}")
        frame = np.asarray(image, dtype=np.uint8)
        reading = DiceReader.shipped().read(frame, cp.profile)
        counts = Z.count_dice(cp.zones, reading.dice)
        out = args.output or args.draw.with_suffix(".zones.png")
        cv2.imwrite(str(out), Z.draw_zones(frame, cp.zones, counts=counts))
        for z in cp.zones:
            print(f"  {plural(counts[z.key], 'die', 'dice')} on seat {z.seat} {z.space}")
        print(f"wrote {out}")
    if changed:
        save(args, cp)
    return 0


__all__ = ["edit_zones"]
