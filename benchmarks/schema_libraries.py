"""Schema libraries for settings and profiles: msgspec against pydantic, import time and memory.

Run: .venv/bin/python benchmarks/schema_libraries.py --python PYTHON [--runs N] (about 20 s).
``--python`` names an interpreter that has both libraries (the project's venv has only the one
chosen), e.g. one made with ``.tools/bin/uv venv /tmp/schema-bench`` and
``VIRTUAL_ENV=/tmp/schema-bench .tools/bin/uv pip install msgspec pydantic``. Each run is a
fresh process that imports the library, declares a schema like the settings file's (eleven
fields, enums, bounds, no unknown keys) and checks one mapping 1,000 times; runs alternate A,
B, A, B... so that a machine busy with other work slows both alike. Prints the median and the
spread of each figure:

- import: wall time of ``import <library>`` in the fresh process (ms);
- RSS: the process's resident set size after the import and the schema, less its size before
  the import (MiB, from /proc/self/status);
- check: one validation of a settings mapping (µs, median of 1,000).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

lib = sys.argv[1]
before = rss_kib()
t0 = time.perf_counter()
if lib == "msgspec":
    import msgspec
else:
    import pydantic
t1 = time.perf_counter()
from typing import Annotated, Literal

DATA = {"camera": "opencv:0", "calibration_profile": "default", "button_map": "default",
        "volume": 0.5, "soundtrack_folder": "", "palette": "okabe-ito", "text_size": "large",
        "parry_seconds": 3.0, "round_seconds": 180.0, "dice_view": "full screen",
        "keyboard": "auto"}
Text = str
if lib == "msgspec":
    class Settings(msgspec.Struct, forbid_unknown_fields=True):
        camera: str = ""
        calibration_profile: str = "default"
        button_map: str = "default"
        volume: Annotated[float, msgspec.Meta(ge=0, le=1)] | None = None
        soundtrack_folder: str = ""
        palette: Literal["okabe-ito", "classic"] = "okabe-ito"
        text_size: Literal["normal", "large", "huge"] = "normal"
        parry_seconds: Annotated[float, msgspec.Meta(ge=0.5, le=30)] = 3.0
        round_seconds: Annotated[float, msgspec.Meta(ge=10, le=3600)] = 180.0
        dice_view: Literal["full screen", "beside the arena"] = "full screen"
        keyboard: Literal["auto", "on-screen", "physical"] = "auto"

    def check():
        return msgspec.convert(DATA, Settings)
else:
    class Settings(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="forbid", strict=True)
        camera: str = ""
        calibration_profile: str = "default"
        button_map: str = "default"
        volume: Annotated[float, pydantic.Field(ge=0, le=1)] | None = None
        soundtrack_folder: str = ""
        palette: Literal["okabe-ito", "classic"] = "okabe-ito"
        text_size: Literal["normal", "large", "huge"] = "normal"
        parry_seconds: Annotated[float, pydantic.Field(ge=0.5, le=30)] = 3.0
        round_seconds: Annotated[float, pydantic.Field(ge=10, le=3600)] = 180.0
        dice_view: Literal["full screen", "beside the arena"] = "full screen"
        keyboard: Literal["auto", "on-screen", "physical"] = "auto"

    def check():
        return Settings.model_validate(DATA)
check()
after = rss_kib()
times = []
for _ in range(1000):
    a = time.perf_counter()
    check()
    times.append(time.perf_counter() - a)
times.sort()
print(json.dumps({"import_ms": (t1 - t0) * 1000, "rss_mib": (after - before) / 1024,
                  "check_us": times[len(times) // 2] * 1e6}))
"""

LIBRARIES = ("msgspec", "pydantic")


def one(python: str, lib: str) -> dict[str, float]:
    done = subprocess.run([python, "-c", CHILD, lib], capture_output=True, text=True,
                          timeout=120, check=True)
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per library (default 10)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter with both libraries installed")
    args = parser.parse_args()
    versions = subprocess.run(
        [args.python, "-c", "import msgspec, pydantic, sys; "
         "print(sys.version.split()[0], msgspec.__version__, pydantic.VERSION)"],
        capture_output=True, text=True, check=True).stdout.split()
    print(f"Python {versions[0]}, msgspec {versions[1]}, pydantic {versions[2]}; "
          f"{args.runs} fresh processes each, interleaved")
    results: dict[str, list[dict[str, float]]] = {lib: [] for lib in LIBRARIES}
    for _ in range(args.runs):
        for lib in LIBRARIES:
            results[lib].append(one(args.python, lib))
    print(f"{'library':10} {'import ms':>20} {'RSS MiB':>20} {'check µs':>20}")
    for lib in LIBRARIES:
        cells = []
        for key in ("import_ms", "rss_mib", "check_us"):
            values = [r[key] for r in results[lib]]
            cells.append(f"{statistics.median(values):8.1f} ({min(values):.1f}-{max(values):.1f})")
        print(f"{lib:10} " + " ".join(f"{c:>20}" for c in cells))


if __name__ == "__main__":
    main()
