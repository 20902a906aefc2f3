"""Stand-in for simplejpeg built for numpy 2 (PyPI's aarch64 wheel in the venv; ../../README.md)."""

from __future__ import annotations

__version__ = "1.9.0"
