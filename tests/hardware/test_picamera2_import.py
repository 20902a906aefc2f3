"""Loading the Pi camera stack inside the venv: the numpy 1/2 clash of Raspberry Pi OS Bookworm.

picamera2 comes from apt and imports apt's simplejpeg, built for numpy 1.x; the venv has numpy 2
(OpenCV 5 needs it). The stand-ins in ``standins/`` reproduce that (see its README). Each case
runs in its own Python process with the stand-ins placed *after* the venv's site-packages, where
a ``--system-site-packages`` venv finds apt's packages.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker

from hardware.camera.picam import Picamera2LoadError, explain_import_error, import_picamera2

HERE = Path(__file__).parent
STANDINS = HERE / "standins"
ROOT = HERE.parents[1]
APT_SITE = [STANDINS, STANDINS / "simplejpeg-numpy1"]  # what apt puts in dist-packages
NUMPY1_SIMPLEJPEG = STANDINS / "simplejpeg-numpy1"

PROBE = """
import json, sys, warnings
sys.path[:0] = json.loads(sys.argv[2])
sys.path.extend(json.loads(sys.argv[1]))
from companion.services.standin import stand_in_camera
from hardware.camera import open_source
from hardware.camera.picam import Picamera2LoadError, Picamera2Source, import_picamera2
from hardware.diagnose import check_picamera2
from hardware.errors import CameraUnavailable
out = {}
try:
    cls = import_picamera2()
    out["import"] = "ok"
    out["cameras"] = cls.global_camera_info()
    import simplejpeg
    out["simplejpeg"] = simplejpeg.__version__
except Picamera2LoadError as e:
    out.update({"import": "failed", "kind": e.kind, "cause": e.cause, "fix": e.fix})
try:
    Picamera2Source().open()
except CameraUnavailable as e:
    out["open"] = f"{type(e).__name__}: {e}"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    src = open_source("auto", stand_in=stand_in_camera)
out["auto"] = src.name
out["auto_warning"] = " ".join(str(w.message) for w in caught)
src.close()
out["doctor"] = [[c.verdict, c.finding, c.action] for c in check_picamera2(on_pi=True)]
print(json.dumps(out))
"""


def probe(extra_path: list[Path], first: list[Path] | tuple[()] = ()) -> dict[str, object]:
    """Run PROBE with ``extra_path`` after the venv's site-packages (where a
    --system-site-packages venv finds apt's packages) and ``first`` before everything."""
    after = json.dumps([str(p) for p in extra_path])
    before = json.dumps([str(p) for p in first])
    done = subprocess.run([sys.executable, "-c", PROBE, after, before], cwd=ROOT, text=True,
                          capture_output=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "COMPANION_CAMERA": "",
                               "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_numpy_clash_is_named_with_its_fix_and_auto_moves_on() -> None:
    # apt's simplejpeg is put first: on aarch64 the venv has the numpy-2 build, which would win
    got = probe(APT_SITE, first=[NUMPY1_SIMPLEJPEG])
    assert got["import"] == "failed" and got["kind"] == "numpy"
    cause = str(got["cause"])
    assert "simplejpeg" in cause and "numpy 2." in cause and "dtype size changed" in cause
    assert str(STANDINS / "simplejpeg-numpy1" / "simplejpeg") in cause  # where it came from
    assert "./start.sh" in str(got["fix"]) and "simplejpeg" in str(got["fix"])
    # the source itself says the same as a CameraUnavailable, so `auto` falls back, saying why
    assert str(got["open"]).startswith("Picamera2LoadError: picamera2 cannot load: simplejpeg")
    assert got["auto"] != "picamera2"
    assert "simplejpeg" in str(got["auto_warning"])
    # the doctor names the cause and the fix, not "reboot"
    [[verdict, finding, action]] = got["doctor"]  # type: ignore[misc]
    assert verdict == "fail" and "simplejpeg" in finding and "numpy" in finding
    assert "./start.sh" in action and "reboot" not in action


def test_a_numpy2_simplejpeg_in_the_venv_shadows_apts_and_picamera2_loads() -> None:
    got = probe([STANDINS / "simplejpeg-numpy2", *APT_SITE])
    # the stand-in's, or on aarch64 the venv's own numpy-2 build; never apt's 1.6.6
    assert got["import"] == "ok" and got["simplejpeg"] != "1.6.6"
    assert got["cameras"] == []
    # with no camera attached the source reports that, not a load failure
    assert "no Pi camera 0 (IndexError" in str(got["open"])
    [[verdict, finding, _action]] = got["doctor"]  # type: ignore[misc]
    assert (verdict, finding) == ("warn", "picamera2: loads, but no camera detected")


# The Python each release's apt python3-picamera2 runs on, for the lock's markers.
PI_PYTHON = {"bookworm": "3.11", "trixie": "3.13"}


def _lock_installs(package: str, release: str) -> bool:
    """Whether `uv sync` puts ``package`` into the venv on 64-bit Raspberry Pi OS ``release``."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    ours = next(p for p in lock["package"] if p["name"] == "table-companion")
    py = PI_PYTHON[release]
    env = {"python_version": py, "python_full_version": py + ".2", "platform_machine": "aarch64",
           "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
           "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    return any(d["name"] == package and Marker(d.get("marker", "python_version > '0'"))
               .evaluate(env) for d in ours["dependencies"])


def test_the_lock_installs_a_numpy2_simplejpeg_on_bookworm_only() -> None:
    """Bookworm's apt simplejpeg is built for numpy 1: the venv needs its own numpy-2 build.
    Trixie's is built for numpy 2: a second copy would only shadow the one Raspberry Pi ships
    and tests with picamera2."""
    assert _lock_installs("simplejpeg", "bookworm")
    assert not _lock_installs("simplejpeg", "trixie")
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    packages = {p["name"]: p for p in lock["package"]}
    sj = packages["simplejpeg"]
    major, minor = (int(v) for v in sj["version"].split(".")[:2])
    assert (major, minor) >= (1, 8)  # builds for numpy 2
    wheels = [w["url"].rsplit("/", 1)[1] for w in sj["wheels"]]
    assert any("cp311-cp311" in w and "aarch64" in w for w in wheels), wheels
    numpy_majors = {int(p["version"].split(".")[0]) for p in lock["package"]
                    if p["name"] == "numpy"}
    assert numpy_majors == {2}


def test_on_trixie_apts_own_simplejpeg_loads_beside_the_venvs_numpy() -> None:
    """What the venv sees on Trixie: apt's picamera2 and numpy-2.2 simplejpeg, no copy of its
    own (the lock adds none there), the venv's numpy 2."""
    # first on the path: a machine's own simplejpeg (a real apt one, or the lock's on Bookworm's
    # Python) must not stand in for Trixie's
    got = probe([STANDINS], first=[STANDINS / "simplejpeg-trixie"])
    assert got["import"] == "ok" and got["simplejpeg"] == "1.8.1"  # Trixie's, no shadow needed
    assert "no Pi camera 0 (IndexError" in str(got["open"])
    [[verdict, finding, _action]] = got["doctor"]  # type: ignore[misc]
    assert (verdict, finding) == ("warn", "picamera2: loads, but no camera detected")


def test_picamera2_missing_or_hidden_from_the_venv(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr("hardware.camera.picam.SYSTEM_SITE", tmp_path)
    with pytest.raises(Picamera2LoadError) as missing:
        import_picamera2()
    assert missing.value.kind == "missing"
    assert "sudo apt install python3-picamera2" in missing.value.fix
    (tmp_path / "picamera2").mkdir()
    with pytest.raises(Picamera2LoadError) as hidden:
        import_picamera2()
    assert hidden.value.kind == "hidden"
    assert f"installed in {tmp_path}" in hidden.value.cause
    assert "delete .venv" in hidden.value.fix


def test_a_missing_dependency_and_any_other_failure_are_named() -> None:
    try:
        import libcamera  # type: ignore[import-not-found]  # noqa: F401
    except ModuleNotFoundError as exc:
        problem = explain_import_error(exc)
    assert problem.kind == "missing" and "'libcamera'" in problem.cause
    assert "sudo apt install python3-libcamera" in problem.fix

    def broken_module() -> None:
        raise RuntimeError("libcamera: IPA proxy not found")

    try:
        broken_module()
    except RuntimeError as exc:
        problem = explain_import_error(exc)
    assert problem.kind == "broken"
    assert "RuntimeError: libcamera: IPA proxy not found" in problem.cause
    assert "--reinstall python3-picamera2" in problem.fix
