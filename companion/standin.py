"""The stand-in camera: the hardware layer's synthetic source drawing vision's rendered dice.

The hardware package knows devices, not dice, so the app gives the stand-in what to draw: scenes
from :func:`vision.synthetic.random_scene` and :func:`vision.synthetic.render`. Used when the
players choose it (``synthetic``) or when no camera is found; every screen that shows its
picture says it is rendered dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from hardware.camera import SyntheticSource

#: What the screens call the stand-in's picture.
LABEL = "rendered dice, no camera"


def stand_in_camera(options: Mapping[str, Any], **extra: Any) -> SyntheticSource:
    """A :class:`SyntheticSource` of rendered dice rolls, with the ``[camera]`` options it takes
    (width, height, fps, seed, speed, realtime) and any of its keywords in ``extra``."""
    from vision import synthetic as vs

    kw: dict[str, Any] = {**dict(options), **extra}
    width, height = int(kw.get("width", 640)), int(kw.get("height", 480))
    n_dice = kw.get("n_dice", (1, 8))
    colours, icon_set = kw.get("colours"), kw.get("icon_set")

    def scene(rng: np.random.Generator) -> Any:
        return vs.random_scene(rng, width=width, height=height, n_dice=n_dice,
                               colours=colours, icon_set=icon_set)

    kw.setdefault("scene_factory", scene)
    return SyntheticSource(renderer=vs.render, icon_sets=vs.ICON_SETS, **kw)


__all__ = ["LABEL", "stand_in_camera"]
