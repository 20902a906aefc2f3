"""The test settings themselves (tests/conftest.py): what once made CI fail by chance."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def test_every_test_process_gets_a_kivy_home_of_its_own() -> None:
    """pytest-xdist's workers start with the controller's environment, KIVY_HOME included; two
    workers importing Kivy at once into one new home failed (FileExistsError on its `mods`
    folder) and the whole main suite ran no test. Each process that loads the test settings
    makes its own home, before Kivy is imported."""
    code = ("import os, sys; sys.path.insert(0, sys.argv[1]); import conftest; "
            "print(os.environ['KIVY_HOME'])")
    env = dict(os.environ)  # as a worker starts: this process's KIVY_HOME inherited
    homes = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code, str(HERE)], capture_output=True,
                              text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        homes.append(done.stdout.strip())
    assert homes[0] != homes[1]
    assert os.environ["KIVY_HOME"] not in homes
    assert all(Path(h).is_dir() for h in homes)
