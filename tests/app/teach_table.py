"""The table the teaching tests lay out: a camera showing what the test puts in front of it, a
roll (with a die too faint for the camera and a coin), six dice laid out 1 to 6, where the
teaching screen's picture shows a frame pixel, and a wait on a condition with a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The roll: (value, centre) of each die, 70 px dice on a 640 x 480 table.
ROLL = ((2, (170.0, 200.0)), (5, (330.0, 260.0)), (6, (480.0, 180.0)))
#: A die drawn too faint for the camera (the players add it by a tap), a coin beside them.
FAINT = (3, (250.0, 380.0))
COIN = (520.0, 380.0)


@dataclass
class Frame:
    image: np.ndarray
    t: float
    index: int


class Camera:
    """The table as the test lays it: the picture it shows now (virtual time, 0.1 s a
    frame)."""

    name = "fake"  # a camera, not the stand-in

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.reads = 0

    def read(self) -> Frame:
        self.reads += 1
        return Frame(self.image, self.reads * 0.1, self.reads)

    def close(self) -> None:
        pass


def photos() -> tuple[np.ndarray, np.ndarray]:
    """A roll (with a faint die and a coin) and six dice laid out 1 to 6."""
    import cv2

    from vision.synthetic import Scene, SynthDie, render

    dice = [SynthDie(center=c, size=70.0, angle=10.0 * k, value=v, colour="white")
            for k, (v, c) in enumerate(ROLL)]
    # a pale die on the pale table: the camera does not see it
    dice.append(SynthDie(center=FAINT[1], size=70.0, angle=5.0, value=FAINT[0],
                         body_bgr=(206, 208, 210), pip_bgr=(196, 198, 200)))
    roll = render(Scene(width=640, height=480, dice=tuple(dice)))
    cv2.circle(roll, (int(COIN[0]), int(COIN[1])), 30, (40, 160, 200), -1)
    row = tuple(SynthDie(center=(70.0 + 100 * k, 240.0), size=64.0, angle=6.0 * k, value=k + 1,
                         colour="white") for k in range(6))
    return roll, render(Scene(width=640, height=480, dice=row))


def at(picture: Any, shape: tuple[int, ...], x: float, y: float) -> tuple[float, float]:
    """The window point where the picture shows frame pixel (x, y)."""
    iw, ih = picture.norm_image_size
    left, bottom = picture.center_x - iw / 2, picture.center_y - ih / 2
    return picture.to_window(left + x / shape[1] * iw, bottom + (1 - y / shape[0]) * ih)


def wait(cond: Callable[[], bool], what: str, seconds: float = 120.0) -> Generator[int, None, None]:
    """Frames until ``cond()`` holds; an AssertionError naming ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, f"waited in vain for {what}"
        yield 1
