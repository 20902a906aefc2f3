"""Screenshots of the standings page with Debian's headless Chromium (the demo, the docs)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

#: A phone held upright, and a projector.
SIZES = {"phone": (390, 844), "projector": (1920, 1080)}


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def screenshot(url: str, path: Path, size: tuple[int, int], timeout: float = 60.0) -> bool:
    """Save a screenshot of ``url`` at ``size`` (width, height) into ``path``; False when
    Chromium is not installed or fails (the caller says so)."""
    exe = chromium()
    if exe is None:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="companion-chromium-") as profile:
        try:
            done = subprocess.run(
                [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-extensions",
                 f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
                 f"--screenshot={path}", url],
                capture_output=True, timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0 and path.exists()
