"""Running a piece of the companion as another user (`nobody`) when the tests run as root.

Root may read and write any file, so a test of what the app does with a file it may not write
runs its code as `nobody`. That user may not enter the clone (CI clones into a folder only root
may enter) nor the virtual environment inside it, so the code runs from a copy of its own: the
packages it imports, ours and the third-party ones, copied into a folder anybody may read, run
by the base Python interpreter (outside the clone).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NOBODY = 65534
REPO = Path(__file__).parents[2]


def _top_level_sources(modules: list[str]) -> list[str]:
    """The files or package folders of every non-standard top-level module that importing
    ``modules`` loads, found by importing them in a child process of this interpreter."""
    code = (
        "import importlib, json, os, sys\n"
        "std = os.path.dirname(os.__file__)\n"
        "for m in sys.argv[1:]: importlib.import_module(m)\n"
        "out = set()\n"
        "for name, mod in list(sys.modules.items()):\n"
        "    f = getattr(mod, '__file__', None)\n"
        "    if '.' in name or not f: continue\n"
        "    if f.startswith(std + '/') and '-packages/' not in f: continue\n"
        "    out.add(f.rsplit('/', 1)[0] if f.endswith('/__init__.py') else f)\n"
        "print(json.dumps(sorted(out)))\n")
    done = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True,
                          text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    found: list[str] = json.loads(done.stdout)
    return found


def _open_to_all(folder: Path) -> None:
    for root, dirs, files in os.walk(folder):
        os.chmod(root, 0o755)
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)


def base_python() -> str:
    """The interpreter the virtual environment was made from (a venv's own `python` is a link
    inside the clone)."""
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


def readable_copy(folder: Path, modules: list[str]) -> Path:
    """Copies what importing ``modules`` needs into ``folder/py`` (readable by anybody) and
    returns that folder, for ``sys.path``. Name the modules the code imports only when it runs
    (``platformdirs``, imported where a path is first asked for) too."""
    dest = folder / "py"
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for source in _top_level_sources(modules):
        src = Path(source)
        if src.is_dir():
            shutil.copytree(src, dest / src.name, ignore=ignore)
        else:
            shutil.copy2(src, dest / src.name)
    _open_to_all(dest)
    return dest


def as_nobody(command: list[str]) -> list[str]:
    """``command`` run as `nobody` (root only; skips where setpriv is missing or where that user
    cannot run the base interpreter)."""
    if shutil.which("setpriv") is None:
        pytest.skip("root, and no setpriv to run as another user")
    wrapped = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run([*wrapped, base_python(), "-S", "-c", "pass"], capture_output=True,
                           timeout=60, cwd="/")
    if probe.returncode != 0:
        pytest.skip(f"the user nobody cannot run {base_python()} (where Python is installed, "
                    "not where the clone is)")
    return [*wrapped, *command]


def stdlib_only_python() -> list[str]:
    """The base interpreter, told to ignore site-packages and PYTHON* variables: the copy made
    by :func:`readable_copy` is all it sees of the companion."""
    return [base_python(), "-s", "-E"]
