"""vision: frames in, dice readings out.

Pure functions over numpy BGR frames (OpenCV), plus a settle tracker:

- :func:`read_dice` finds every die in a frame and reads its top face and colour;
- :func:`annotate` draws a reading over a copy of the frame;
- :class:`RollTracker` turns a stream of readings into rolls, told apart from handling;
- :mod:`vision.motion` measures motion between frames cheaply and decides which frames the
  full reader reads (a Raspberry Pi cannot read every frame);
- :mod:`vision.synthetic` renders dice scenes with ground truth.
"""

from vision.profile import (
    DEFAULT_PALETTE,
    ColourModel,
    FaceSet,
    Palette,
    Profile,
    TableRegion,
)
from vision.types import Die, Reading

__all__ = [
    "DEFAULT_PALETTE",
    "ColourModel",
    "Die",
    "FaceSet",
    "Palette",
    "Profile",
    "Reading",
    "TableRegion",
]

from vision.read import read_dice

__all__ += ["read_dice"]
from vision.annotate import annotate  # noqa: E402

__all__ += ["annotate"]
from vision.tracker import Roll, RollTracker, TrackerState  # noqa: E402

__all__ += ["Roll", "RollTracker", "TrackerState"]
