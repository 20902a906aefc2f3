"""scripts/bootstrap.sh (what ./start.sh and ./test.sh run first) against a stand-in apt.

The script runs in a copy of the repository's layout, with dpkg-query, apt-get, apt-cache and uv
replaced by small recorders on PATH, so the test sees which packages it asks apt for and what it
tells the user, without touching this machine's packages.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

# Debian's archive as the stand-in apt-cache knows it: every package but Raspberry Pi OS's own.
FAKES = {
    # installed: the package names in $INSTALLED (none by default)
    "dpkg-query": ('pkg="${!#}"\n'
                   'case " ${INSTALLED:-} " in *" $pkg "*) echo -n "install ok installed";;\n'
                   '  *) exit 1 ;; esac\n'),
    "apt-cache": (
        'pkg="$2"\n'
        'case "$pkg" in python3-picamera2|python3-lgpio) echo "  Candidate: (none)" ;;\n'
        '  *) echo "  Candidate: 1.0-1" ;; esac\n'
    ),
    "apt-get": (
        'echo "apt-get $*" >> "$LOG"\n'
        'for a in "$@"; do case "$a" in python3-picamera2|python3-lgpio)\n'
        '  echo "E: Unable to locate package $a" >&2; exit 100 ;; esac; done\n'
    ),
    "sudo": 'exec "$@"\n',
}


# /etc/os-release of each Raspberry Pi OS release (the lines the script may read)
OS_RELEASE = {
    "bookworm": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\n'
                "VERSION_CODENAME=bookworm\nID=debian\n",
    "trixie": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_ID="13"\n'
              "VERSION_CODENAME=trixie\nID=debian\n",
}
# What each release has installed once ./start.sh ran (the t64 names on Trixie).
INSTALLED = {
    "bookworm": "python3 python3-venv libgl1 libegl1 libgles2 libmtdev1 libsdl2-2.0-0 mosquitto "
                "libportaudio2",
    "trixie": "python3 python3-venv libgl1 libegl1 libgles2 libmtdev1t64 libsdl2-2.0-0 mosquitto "
              "libportaudio2",
}


def run_bootstrap(tmp_path: Path, model: str, cwd: Path | None = None, release: str = "bookworm",
                  installed: str = "") -> tuple[subprocess.CompletedProcess[str], str]:
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap.sh", repo / "scripts" / "bootstrap.sh")
    (repo / ".venv").mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fakes = dict(FAKES, uv='echo "uv $*" >> "$LOG"\n')
    for name, body in fakes.items():
        target = (repo / ".tools" / "bin" / "uv") if name == "uv" else bin_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("#!/bin/bash\n" + body, encoding="utf-8")
        target.chmod(target.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "model").write_text(model, encoding="utf-8")
    log = tmp_path / "log"
    log.touch()
    (tmp_path / "os-release").write_text(OS_RELEASE[release], encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LOG": str(log),
           "COMPANION_MODEL_FILE": str(tmp_path / "model"), "HOME": str(tmp_path),
           "COMPANION_OS_RELEASE": str(tmp_path / "os-release"), "INSTALLED": installed}
    script = f"source {repo}/scripts/bootstrap.sh --no-dev --inexact && echo \"cwd $PWD\""
    done = subprocess.run(["bash", "-c", script], cwd=cwd or repo, env=env, text=True,
                          capture_output=True, timeout=60)
    return done, log.read_text(encoding="utf-8")


def test_plain_debian_on_a_pi_installs_what_exists_and_says_what_does_not(
        tmp_path: Path) -> None:
    done, log = run_bootstrap(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    assert done.returncode == 0, done.stderr
    [install] = [ln for ln in log.splitlines() if " install " in ln]
    assert "libsdl2-2.0-0" in install and "python3-picamera2" not in install
    assert "uv sync --quiet --frozen --no-dev --inexact" in log
    err = done.stderr
    assert "python3-picamera2 is not in this system's apt archive (Raspberry Pi OS has it)" in err
    assert "a USB webcam" in err and "stand-in still work" in err
    assert "python3-lgpio is not in this system's apt archive" in err


def test_off_a_pi_it_never_asks_for_the_pi_packages(tmp_path: Path) -> None:
    done, log = run_bootstrap(tmp_path, "")
    assert done.returncode == 0, done.stderr
    assert "picamera2" not in log + done.stderr


def test_the_callers_folder_is_given_back(tmp_path: Path) -> None:
    """`~/companion/start.sh read photos/x.jpg` from another folder reads that folder's photo."""
    elsewhere = tmp_path / "my-photos"
    elsewhere.mkdir()
    done, _log = run_bootstrap(tmp_path, "", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"cwd {elsewhere}"


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_each_release_gets_its_own_library_names(tmp_path: Path, release: str) -> None:
    done, log = run_bootstrap(tmp_path, "", release=release)
    assert done.returncode == 0, done.stderr
    [install] = [ln.split() for ln in log.splitlines() if " install " in ln]
    mtdev = "libmtdev1t64" if release == "trixie" else "libmtdev1"
    assert mtdev in install and [p for p in install if p.startswith("libmtdev")] == [mtdev]


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_a_second_start_runs_no_apt_at_all(tmp_path: Path, release: str) -> None:
    """Once everything is installed, ./start.sh goes straight to the app on either release
    (on Trixie a check by Bookworm's name libmtdev1 ran apt at every start)."""
    done, log = run_bootstrap(tmp_path, "", release=release, installed=INSTALLED[release])
    assert done.returncode == 0, done.stderr
    assert "apt-get" not in log, log
    assert "installing system packages" not in done.stderr
