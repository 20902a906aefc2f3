"""Calibration: teaches vision one table, in guided steps, and keeps the result as profiles.

- :mod:`calibration.table`: the tray region from printed ArUco markers or four tapped corners
  (homography to a top-down view, pixels per millimetre, expected die size).
- :mod:`calibration.palette`: robust Lab colour models learned from example dice, and which
  colours this camera cannot tell apart under this light.
- :mod:`calibration.faces`: icon-face sets from labelled crops, with per-game templates and
  cross-validated accuracy.
- :mod:`calibration.profiles`: strict, versioned profile files in the user's config folder.
- :mod:`calibration.check`: reads a few labelled rolls and reports accuracy and confusions.

Imports vision only (never the app, the hardware or the rules).
"""

from __future__ import annotations

__all__ = ["check", "faces", "images", "palette", "profiles", "table"]
