"""vision: frames in, dice readings out.

Pure functions over numpy BGR frames (OpenCV), plus a settle tracker:

- :class:`DiceReader` finds every die in a frame and reads its top face and colour, with the
  models it is given (:meth:`DiceReader.shipped`: the shipped ones); :func:`read_dice` reads
  with the shipped models;
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
from vision.types import Die, Reading, ReadWarning, WarningKind

__all__ = [
    "DEFAULT_PALETTE",
    "ColourModel",
    "Die",
    "FaceSet",
    "Palette",
    "Profile",
    "ReadWarning",
    "Reading",
    "TableRegion",
    "WarningKind",
]

from vision.read import DiceReader, read_dice

__all__ += ["DiceReader", "read_dice"]
from vision.annotate import annotate  # noqa: E402

__all__ += ["annotate"]
from vision.tracker import Roll, RollTracker, TrackerState  # noqa: E402

__all__ += ["Roll", "RollTracker", "TrackerState"]
