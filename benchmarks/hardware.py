"""Hardware benchmarks: camera frame latency and fps (replay, synthetic), button press to callback.

Run: .venv/bin/python benchmarks/hardware.py [--quick]

Figures printed:
- replay/synthetic, as fast as possible: mean and p95 time per read(), and fps;
- replay/synthetic paced at 30 fps: achieved fps and latency (time from the frame's timestamp to
  read() returning, i.e. how old a frame is when the caller gets it);
- buttons on gpiozero MockFactory: time from drive_low() to the ButtonPress callback and to the
  ButtonCall of a button that sends at once (target < 20 ms), and to a counted call (which by
  design waits for the multi-press window).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from hardware.camera import FrameSource, ReplaySource, SyntheticSource


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def bench_fast(src: FrameSource, n: int) -> tuple[float, float, float]:
    """Mean ms and p95 ms per read(), and fps, reading ``n`` frames back to back."""
    times = []
    with src:
        src.read()  # warm up (first image load / renderer import)
        start = time.perf_counter()
        for _ in range(n):
            t0 = time.perf_counter()
            src.read()
            times.append((time.perf_counter() - t0) * 1000)
        total = time.perf_counter() - start
    return statistics.mean(times), pct(times, 95), n / total


def bench_paced(src: FrameSource, n: int) -> tuple[float, float, float]:
    """Achieved fps, mean and p95 latency (ms) from frame timestamp to read() returning."""
    lat = []
    with src:
        first = src.read()
        last = first
        for _ in range(n):
            last = src.read()
            lat.append((time.monotonic() - last.t) * 1000)
    return n / (last.t - first.t), statistics.mean(lat), pct(lat, 95)


def camera_benchmarks(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rng = np.random.default_rng(0)
        for i in range(30):
            img = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
            cv2.imwrite(str(folder / f"f{i:03d}.png"), img)
        mean, p95, fps = bench_fast(ReplaySource(folder, realtime=False, loop=True), n)
        print(f"replay 640x480 PNG, unpaced : {mean:6.2f} ms/read (p95 {p95:.2f}), {fps:7.1f} fps")
        fps, mean, p95 = bench_paced(ReplaySource(folder, fps=30, loop=True), n // 2)
        print(f"replay paced at 30 fps      : {fps:6.1f} fps, latency {mean:.2f} ms "
              f"(p95 {p95:.2f})")
    try:
        import vision.synthetic  # noqa: F401

        kw: dict[str, object] = {}
        label = "vision renderer"
    except ImportError as exc:
        print(f"synthetic with vision.synthetic: skipped ({exc}); timing the animation with a "
              "stand-in circle renderer instead")
        kw = {"scene_factory": _stand_in_scene, "renderer": _stand_in_render}
        label = "stand-in renderer"
    mean, p95, fps = bench_fast(SyntheticSource(realtime=False, seed=1, **kw), n)  # type: ignore
    print(f"synthetic ({label}), unpaced: {mean:6.2f} ms/read (p95 {p95:.2f}), {fps:7.1f} fps")
    fps, mean, p95 = bench_paced(SyntheticSource(fps=30, seed=1, **kw), n // 2)  # type: ignore
    print(f"synthetic paced at 30 fps   : {fps:6.1f} fps, latency {mean:.2f} ms (p95 {p95:.2f})")


def _stand_in_scene(rng: np.random.Generator) -> object:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Die:
        center: tuple[float, float]
        angle: float
        value: int
        colour: str

    @dataclass(frozen=True)
    class Scene:
        width: int
        height: int
        dice: tuple[Die, ...]

    dice = tuple(Die((float(rng.uniform(50, 590)), float(rng.uniform(50, 430))), 0.0,
                     int(rng.integers(1, 7)), "red") for _ in range(int(rng.integers(1, 9))))
    return Scene(640, 480, dice)


def _stand_in_render(scene: object, rng: np.random.Generator) -> np.ndarray:
    img = np.full((480, 640, 3), 40, np.uint8)
    for d in scene.dice:  # type: ignore[attr-defined]
        cv2.circle(img, (round(d.center[0]), round(d.center[1])), 20, (30, 30, 200), -1)
    return img


def button_benchmarks(n: int) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import ButtonCall, ButtonEvent, ButtonMap, ButtonPad, ButtonPress

    Device.pin_factory = MockFactory()
    bmap = ButtonMap.from_toml("""
        [buttons]
        multi_press_window = 0.1
        [buttons.seats.P1]
        move = { pin = 5, multi_press = false, hold = "none" }
        defend = { pin = 13, hold = "undo" }
    """)
    press_at = [0.0]
    lat: dict[str, list[float]] = {"press": [], "call-at-once": [], "call-counted": []}
    done = threading.Event()

    def on_event(e: ButtonEvent) -> None:
        ms = (time.perf_counter() - press_at[0]) * 1000
        if isinstance(e, ButtonPress) and e.action == "move":
            lat["press"].append(ms)
        elif isinstance(e, ButtonCall):
            lat["call-at-once" if e.action == "move" else "call-counted"].append(ms)
            done.set()

    with ButtonPad(bmap, on_event) as pad:
        for pin_no, count in ((5, n), (13, max(n // 5, 5))):
            pin = Device.pin_factory.pin(pin_no)
            for _ in range(count):
                done.clear()
                press_at[0] = time.perf_counter()
                pin.drive_low()
                time.sleep(0.03)  # a quick tap, longer than the 25 ms debounce
                pin.drive_high()
                done.wait(timeout=2)
                time.sleep(0.03)
        del pad
    Device.pin_factory.close()
    for key, values in lat.items():
        print(f"button {key:<13}: mean {statistics.mean(values):7.3f} ms, p95 "
              f"{pct(values, 95):7.3f} ms, max {max(values):7.3f} ms (n={len(values)})")
    ok = max(lat["press"]) < 20 and max(lat["call-at-once"]) < 20
    print(f"press -> callback < 20 ms target: {'met' if ok else 'MISSED'} "
          "(a counted call waits for the release plus the 0.1 s multi-press window by design)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames and presses")
    args = parser.parse_args()
    n = 60 if args.quick else 300
    camera_benchmarks(n)
    button_benchmarks(20 if args.quick else 100)


if __name__ == "__main__":
    main()
