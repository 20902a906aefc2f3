"""Nothing in the product imports a test package.

`./start.sh` installs without the dev packages (pytest, hypothesis...), so a product module that
imports one, even through a library (``kivy.tests.common`` imports pytest), breaks
`companion demo` for every user who never ran `./test.sh`. This test imports every module of
the product in a fresh Python where those packages cannot be imported, and also reads the
sources for direct imports of them.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
PRODUCT = ("companion", "vision", "hardware", "rules", "calibration")
TEST_PACKAGES = ("pytest", "_pytest", "hypothesis", "kivy.tests")

IMPORT_ALL = """
import importlib, importlib.abc, json, pkgutil, sys
blocked = tuple(json.loads(sys.argv[1]))

class NoTestPackages(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in blocked):
            raise ModuleNotFoundError(f"No module named {name!r} (a test package)", name=name)
        return None

sys.meta_path.insert(0, NoTestPackages())
failures = {}
count = 0
for top in json.loads(sys.argv[2]):
    package = importlib.import_module(top)
    names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".")]
    for name in names:
        if name.endswith(".__main__"):  # runs the command line; its imports are cli's
            continue
        count += 1
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and any(exc.name == b or exc.name.startswith(b + ".") for b in blocked):
                failures[name] = f"imports {exc.name}"
print(json.dumps({"count": count, "failures": failures}))
"""


def test_every_product_module_imports_without_test_packages(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
               KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               KIVY_HOME=str(tmp_path / "kivy"), COMPANION_DATA_DIR=str(tmp_path / "data"),
               COMPANION_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(TEST_PACKAGES), json.dumps(PRODUCT)],
        cwd=ROOT, env=env, text=True, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["count"] > 50  # the walk really went through the packages
    assert result["failures"] == {}


def test_no_product_source_names_a_test_package() -> None:
    found = []
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}" for n in names
                          if any(n == b or n.startswith(b + ".") for b in TEST_PACKAGES)]
    assert found == []
