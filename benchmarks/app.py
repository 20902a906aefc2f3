"""App benchmarks: start-up, idle CPU, tap response and memory, on this machine, offscreen.

Run: .venv/bin/python benchmarks/app.py   (about 60 s). Prints each figure against its target.

- start-up: from launching a Python process to the start screen drawn and taking touches
  (a fresh process each time; best and median of 3).
- idle CPU: the start screen (5 s), then the arena with a running round clock (10 s), frame
  rate capped at 60 (COMPANION_MAXFPS); CPU seconds used by the process / wall seconds.
- tap response: from a touch on a count button that completes a call (engine, journal fsync,
  redraw of the widgets) to the next frame drawn; 30 taps, median and worst.
- button response: from a GPIO button's pin going low (gpiozero mock pin, the pad's own
  timer thread) to the frame showing the press on the seat's panel; 20 presses.
- memory: the live dice view showing camera frames for 20 s: median resident set size over
  the last 10 s (it settles after ~12 s and then stays flat; sampled every frame) and the
  peak over the whole run.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1",
                "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1", "KIVY_CLIPBOARD": "dummy",
                "KIVY_HOME": tempfile.mkdtemp(prefix="bench-kivy-"),
                "COMPANION_DATA_DIR": tempfile.mkdtemp(prefix="bench-data-"),
                "COMPANION_CONFIG_DIR": tempfile.mkdtemp(prefix="bench-config-")})
    return env


def child_startup() -> None:
    """Child: build the app; print seconds since launch once the start screen is drawn."""
    launched = float(sys.argv[3])
    from kivy.config import Config

    Config.set("graphics", "maxfps", os.environ.get("COMPANION_MAXFPS", "60"))
    from kivy.clock import Clock

    from companion.compose import CompanionApp

    app = CompanionApp()

    def ready(dt: float) -> None:
        assert app.sm is not None and app.sm.current == "start"
        assert app.screens["start"].start_button.width > 0
        print(f"ready {time.time() - launched:.3f}", flush=True)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"rss_start {rss:.0f}", flush=True)
        app.stop()

    app.bind(on_start=lambda *_: Clock.schedule_once(ready, 0))
    app.run()


def child_running() -> None:
    """Child: idle CPU, tap response and memory in one running app."""
    from kivy.config import Config

    Config.set("graphics", "maxfps", os.environ.get("COMPANION_MAXFPS", "60"))
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, run_app
    from companion.session import Change

    app = CompanionApp()
    out: dict[str, Any] = {}

    def idle(seconds: float) -> Generator[int | None, None, float]:
        cpu0, wall0, gl0 = time.process_time(), time.monotonic(), software_gl_cpu()
        while time.monotonic() - wall0 < seconds:
            yield 1
        wall = time.monotonic() - wall0
        out["idle_gl"] = (software_gl_cpu() - gl0) / wall
        return (time.process_time() - cpu0) / wall

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        out["idle_start"] = yield from idle(5)  # the start screen, nothing moving
        d.tap(start.start_button)
        yield 2
        d.tap(app.screens["arena"].go)
        yield 2
        # The arena with the round clock running, nobody touching anything.
        out["idle_cpu"] = yield from idle(10)
        out["idle_cpu_gl"] = out["idle_gl"]
        # Taps: an action, then the count that completes the call; time the completing tap.
        from kivy.core.window import Window

        handler: list[float] = []
        frame: list[float] = []
        flips: list[float] = []
        touches: list[float] = []
        calls: list[float] = []

        from kivy.graphics.opengl import glFinish

        def on_flip(*_: Any) -> None:
            glFinish()  # the frame is shown when the (software) GL has finished drawing it
            flips.append(time.perf_counter())

        def on_touch_up(*_: Any) -> None:  # bound handlers run before the widgets get it
            touches.append(time.perf_counter())

        Window.bind(on_flip=on_flip, on_touch_up=on_touch_up)
        assert app.session is not None
        app.session.subscribe(lambda change: calls.append(time.perf_counter())
                              if change.kind is Change.CALL else None)
        for i in range(30):
            d.action("Ana", "movement")
            yield 2
            d.count(1 + i % 3)
            yield 3
            assert app.session.log[-1].call.endswith(f"Movement {1 + i % 3}")
            t_in = touches[-1]
            done = next(t for t in calls if t > t_in)  # engine + journal fsync done
            shown = next(t for t in flips if t > done)  # first frame flipped after that
            handler.append(done - t_in)
            frame.append(shown - t_in)
        out["tap_handler"] = handler
        out["tap_frame"] = frame
        # GPIO button presses (gpiozero mock pins, the pad's own timer thread): from the pin
        # going low to the frame showing the press on the seat's panel.
        from gpiozero.pins.mock import MockFactory

        from hardware.buttons import ButtonMap, ButtonPad

        factory = MockFactory()
        bmap = ButtonMap.default()
        app.buttons.seats = bmap.seats
        spec = next(b for b in bmap.buttons if b.seat == bmap.seats[0] and b.action == "move")
        pin = factory.pin(int(spec.pin.removeprefix("GPIO")))
        shown_at: list[float] = []
        app.screens["arena"].panels["Ana"].buttons["movement"].bind(
            text=lambda _b, text: shown_at.append(time.perf_counter()) if " x" in text else None)
        presses: list[float] = []
        with ButtonPad(bmap, app.submit_hardware, pin_factory=factory):
            for _ in range(20):
                calls_before = len(app.session.log)
                t_in = time.perf_counter()
                pin.drive_low()
                while not shown_at or shown_at[-1] < t_in:
                    yield 1
                shown = next(t for t in flips if t > shown_at[-1])
                presses.append(shown - t_in)
                t = time.monotonic()
                while time.monotonic() - t < 0.05:
                    yield 1
                pin.drive_high()
                while len(app.session.log) == calls_before:  # the count window closes
                    yield 1
        out["press_frame"] = presses
        Window.unbind(on_flip=on_flip, on_touch_up=on_touch_up)
        # Memory with the camera running.
        app.show("dice")
        t = time.monotonic()
        samples: list[float] = []  # RSS goes up and down by 4-8 MB with each frame read
        while time.monotonic() - t < 20:
            if time.monotonic() - t > 10:
                with open("/proc/self/statm") as f:
                    samples.append(int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20)
            yield 1
        out["frames"] = app.screens["dice"].frames
        out["rss_now"] = statistics.median(samples)
        out["rss_soft_gl"] = software_gl_mb()

    run_app(app, script, timeout=120)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    h, f = out["tap_handler"], out["tap_frame"]
    print(f"idle_cpu {out['idle_cpu']:.4f} {out['idle_start']:.4f} {out['idle_cpu_gl']:.4f}",
          flush=True)
    print(f"tap_handler {statistics.median(h) * 1000:.1f} {max(h) * 1000:.1f}", flush=True)
    print(f"tap_frame {statistics.median(f) * 1000:.1f} {max(f) * 1000:.1f}", flush=True)
    b = out["press_frame"]
    print(f"press_frame {statistics.median(b) * 1000:.1f} {max(b) * 1000:.1f}", flush=True)
    print(f"rss_mb {rss_mb:.0f} {out['frames']} {out['rss_now']:.0f} {out['rss_soft_gl']:.0f}",
          flush=True)


def software_gl_cpu() -> float:
    """CPU seconds so far of this process's llvmpipe threads: the software GL rasteriser, work
    a Pi's GPU does instead."""
    total = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                if not f.read().startswith("llvmpipe"):
                    continue
            with open(f"/proc/self/task/{task}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def software_gl_mb() -> float:
    """Resident MB of Mesa's software rasteriser (llvmpipe: libLLVM, swrast_dri), which this
    GPU-less machine maps and a Pi, drawing with its own GPU driver, does not."""
    total, current = 0, ""
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()
            if head and "-" in head[0] and len(head) >= 5:
                current = head[5] if len(head) > 5 else ""
            elif head and head[0] == "Rss:" and ("libLLVM" in current or "swrast" in current):
                total += int(head[1])
    return total / 1024


def _run(mode: str) -> dict[str, list[str]]:
    args = [sys.executable, str(Path(__file__).resolve()), "--child", mode, f"{time.time()}"]
    proc = subprocess.run(args, env=_env(), cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark child {mode} failed:\n{proc.stderr[-3000:]}")
    return {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines() if line}


def main() -> None:
    runs = [_run("startup") for _ in range(3)]
    starts = [float(r["ready"][0]) for r in runs]
    print(f"start-up to interactive start screen: best {min(starts):.2f} s, "
          f"median {statistics.median(starts):.2f} s  (target <= 3 s)")
    r = _run("running")
    fps = os.environ.get("COMPANION_MAXFPS", "60")
    print(f"idle CPU, maxfps {fps}: start screen {float(r['idle_cpu'][1]) * 100:.1f}%, arena with "
          f"the round clock running {float(r['idle_cpu'][0]) * 100:.1f}% of one core  "
          f"(target <= 5%); of the arena's, {float(r['idle_cpu'][2]) * 100:.1f} points are the "
          "software GL rasteriser's threads (llvmpipe), which a Pi's GPU replaces")
    print(f"tap response, touch to call applied and journaled (fsync): median "
          f"{r['tap_handler'][0]} ms, worst {r['tap_handler'][1]} ms")
    print(f"tap response, touch dispatched to the frame showing it: median {r['tap_frame'][0]} "
          f"ms, worst {r['tap_frame'][1]} ms  (target <= 50 ms; add up to {1000 / float(fps):.0f} "
          "ms for the touch to wait for the next input poll)")
    print(f"button press, pin low to the frame showing it on the panel: median "
          f"{r['press_frame'][0]} ms, worst {r['press_frame'][1]} ms  (target <= 50 ms; the "
          "call itself follows when the count window closes)")
    print(f"memory with the live dice view running ({r['rss_mb'][1]} frames shown): RSS "
          f"{r['rss_mb'][2]} MB (median of the last 10 s), peak {r['rss_mb'][0]} MB  "
          "(target <= 250 MB); "
          f"peak at the start screen {runs[0]['rss_start'][0]} MB; of the RSS, "
          f"{r['rss_mb'][3]} MB is the software GL rasteriser (libLLVM, swrast), which a Pi "
          "drawing with its GPU does not load")
    with open("/proc/loadavg") as f:
        print(f"machine load average while measuring: {f.read().split()[0]} "
              f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        sys.path.insert(0, str(ROOT))
        {"startup": child_startup, "running": child_running}[sys.argv[2]]()
    else:
        main()
