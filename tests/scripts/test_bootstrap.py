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
    # -W -f=FORMAT PACKAGE...: a line "NAME install ok installed" for each installed one
    # (one FORMAT of the two bootstrap.sh uses: ${Status} alone, or ${Package} ${Status})
    "dpkg-query": ('echo "dpkg-query $*" >> "$LOG"; format="$2"; shift 2; rc=0\n'
                   'for pkg in "$@"; do case " ${INSTALLED:-} " in *" $pkg "*)\n'
                   '  case "$format" in *Package*) echo "$pkg install ok installed" ;;\n'
                   '    *) echo -n "install ok installed" ;; esac ;;\n'
                   '  *) echo "dpkg-query: no packages found matching $pkg" >&2; rc=1 ;;\n'
                   'esac; done; exit $rc\n'),
    "apt-cache": (
        'pkg="$2"\n'
        'case "$pkg" in python3-picamera2|python3-lgpio) echo "  Candidate: (none)" ;;\n'
        '  *) echo "  Candidate: 1.0-1" ;; esac\n'
    ),
    "apt-get": (
        'echo "apt-get $*" >> "$LOG"\n'
        # no network: `apt-get update` fails as apt does when it reaches no archive
        'if [ -n "${OFFLINE:-}" ] && [ "$1" = update ]; then\n'
        '  echo "E: Some index files failed to download." >&2; exit 100; fi\n'
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
                  installed: str = "", offline: bool = False,
                  ) -> tuple[subprocess.CompletedProcess[str], str]:
    """One start in ``tmp_path``/repo (made by the first call; a later call is the next start of
    the same clone); the commands of this start alone in the log."""
    repo = tmp_path / "repo"
    bin_dir = tmp_path / "bin"
    if not repo.exists():
        (repo / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / "bootstrap.sh", repo / "scripts" / "bootstrap.sh")
        (repo / ".venv").mkdir()
        bin_dir.mkdir()
        fakes = dict(FAKES, uv='echo "uv $*" >> "$LOG"\n')
        for name, body in fakes.items():
            target = (repo / ".tools" / "bin" / "uv") if name == "uv" else bin_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("#!/bin/bash\n" + body, encoding="utf-8")
            target.chmod(target.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "model").write_text(model, encoding="utf-8")
    log = tmp_path / "log"
    log.write_text("", encoding="utf-8")
    (tmp_path / "os-release").write_text(OS_RELEASE[release], encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LOG": str(log),
           "COMPANION_MODEL_FILE": str(tmp_path / "model"), "HOME": str(tmp_path),
           "COMPANION_OS_RELEASE": str(tmp_path / "os-release"), "INSTALLED": installed,
           "OFFLINE": "1" if offline else ""}
    # as ./start.sh sources it: its `set -e` holds (after `&&` it would be off, and hide a
    # failing command)
    script = f"source {repo}/scripts/bootstrap.sh --no-dev --inexact; echo \"cwd $PWD\""
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


PI = "Raspberry Pi 4 Model B Rev 1.5"


def apt_calls(log: str) -> list[str]:
    return [ln for ln in log.splitlines() if ln.startswith(("apt-get", "apt-cache"))]


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_a_pi_without_the_pi_packages_in_its_archive_asks_apt_once(
        tmp_path: Path, release: str) -> None:
    """Plain Debian on a Pi has no python3-picamera2 nor python3-lgpio: the first start looks
    for them (and says so), later starts never call apt, with or without a network (every
    start ran `apt-get update` before)."""
    done, log = run_bootstrap(tmp_path, PI, release=release, installed=INSTALLED[release])
    assert done.returncode == 0, done.stderr
    assert apt_calls(log)[0] == "apt-get update -qq"
    assert "python3-picamera2 is not in this system's apt archive" in done.stderr
    stamp = (tmp_path / "repo/.tools/system-packages").read_text(encoding="utf-8")
    assert f"release={release}\n" in stamp
    assert "not_in_archive=python3-picamera2 python3-lgpio\n" in stamp
    for offline in (False, True):
        done, log = run_bootstrap(tmp_path, PI, release=release,
                                  installed=INSTALLED[release], offline=offline)
        assert done.returncode == 0, done.stderr
        assert apt_calls(log) == [], log
        assert done.stderr == ""  # said once, at the first start; the doctor says it after
        queries = [ln for ln in log.splitlines() if ln.startswith("dpkg-query")]
        assert any("python3-picamera2" in q for q in queries)  # asked of dpkg's own list


def test_offline_a_missing_package_the_companion_needs_is_named(tmp_path: Path) -> None:
    """Not installed yet and no network: the start says what it needs and what to do, and
    stops (the companion cannot run without its libraries)."""
    installed = INSTALLED["bookworm"].replace(" libsdl2-2.0-0", "")
    done, log = run_bootstrap(tmp_path, PI, installed=installed, offline=True)
    assert done.returncode == 1
    assert apt_calls(log) == ["apt-get update -qq"]
    assert ("companion: the companion needs libsdl2-2.0-0, and apt could not reach the package "
            "archive to install them (is the network connected?). Connect the network, then "
            "run ./start.sh again.") in done.stderr
    assert "cwd" not in done.stdout


def test_offline_at_the_first_start_the_pi_packages_are_left_for_later(tmp_path: Path) -> None:
    """A card made elsewhere, everything needed installed, no network at the first start: the
    optional packages are not looked for, the start goes on, and no later start waits on apt."""
    done, log = run_bootstrap(tmp_path, PI, installed=INSTALLED["bookworm"], offline=True)
    assert done.returncode == 0, done.stderr
    assert apt_calls(log) == ["apt-get update -qq"]
    assert "python3-picamera2 python3-lgpio not looked for" in done.stderr
    stamp = (tmp_path / "repo/.tools/system-packages").read_text(encoding="utf-8")
    assert "not_looked_for=python3-picamera2 python3-lgpio\n" in stamp
    done, log = run_bootstrap(tmp_path, PI, installed=INSTALLED["bookworm"], offline=True)
    assert done.returncode == 0 and apt_calls(log) == [] and done.stderr == ""


def test_a_removed_package_the_companion_needs_is_installed_again(tmp_path: Path) -> None:
    done, _log = run_bootstrap(tmp_path, "", installed=INSTALLED["bookworm"])
    assert done.returncode == 0, done.stderr
    installed = INSTALLED["bookworm"].replace(" mosquitto", "")
    done, log = run_bootstrap(tmp_path, "", installed=installed)
    assert done.returncode == 0, done.stderr
    [install] = [ln for ln in apt_calls(log) if " install " in ln]
    assert install.endswith(" mosquitto")


def test_the_doctor_says_which_pi_package_is_missing_without_asking_apt(
        tmp_path: Path) -> None:
    """Offline, a missing optional package is a line of `companion doctor`, read from the
    start's stamp and dpkg's database (this machine has neither Pi package: plain Debian)."""
    from companion.appliance import packages
    from companion.commands.doctor import packages_checks

    done, _log = run_bootstrap(tmp_path, PI, installed=INSTALLED["bookworm"])
    assert done.returncode == 0, done.stderr
    assert not {"python3-picamera2", "python3-lgpio"} & set(packages.installed())
    checks = packages_checks(tmp_path / "repo")
    assert [(c.area, c.verdict) for c in checks] == [("packages", "warn")] * 2
    camera, gpio = checks
    assert camera.finding.startswith("python3-picamera2: not installed: this system's apt "
                                     "archive did not have it when ./start.sh looked (20")
    assert camera.finding.endswith("the Pi camera module cannot be used; a USB webcam "
                                   "(COMPANION_CAMERA=opencv:0) and the synthetic stand-in "
                                   "still work")
    assert camera.action.startswith("on Raspberry Pi OS: sudo apt install python3-picamera2")
    assert gpio.finding.startswith("python3-lgpio: not installed")
    assert packages_checks(tmp_path / "elsewhere") == []  # ./start.sh never ran there


def test_offline_the_doctor_says_what_was_not_looked_for(tmp_path: Path) -> None:
    from companion.commands.doctor import packages_checks

    run_bootstrap(tmp_path, PI, installed=INSTALLED["bookworm"], offline=True)
    [camera, _gpio] = packages_checks(tmp_path / "repo")
    assert "there was no network when ./start.sh looked for it" in camera.finding
    assert camera.action == "with a network: sudo apt install python3-picamera2"
