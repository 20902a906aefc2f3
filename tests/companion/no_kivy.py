"""Whether importing a module brings Kivy in (a game's model must not), asked of a fresh
Python so modules already imported by other tests do not count."""

from __future__ import annotations

import subprocess
import sys


def imports_kivy(module: str) -> bool:
    code = (f"import sys, {module}; "
            "print(any(m == 'kivy' or m.startswith('kivy.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    return out.stdout.strip() == "True"
