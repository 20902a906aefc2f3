"""The camera feed: frames -> vision -> one settled roll, on a worker thread, only while wanted."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.preview import CameraFeed, frame_provider_for


@dataclass
class FakeFrame:
    image: np.ndarray
    t: float
    index: int


class StillDiceCamera:
    """A rendered tray of known dice, on virtual time: 0.1 s per frame."""

    def __init__(self) -> None:
        from vision.synthetic import Scene, SynthDie, render

        dice = tuple(SynthDie(center=(120.0 + 130 * i, 240.0), size=60.0, angle=10.0 * i,
                              value=v, colour="white") for i, v in enumerate((2, 5, 6, 3)))
        self.truth = [2, 5, 6, 3]
        self.image = render(Scene(width=640, height=480, dice=dice))
        self.reads = 0
        self.closed = 0

    def read(self) -> FakeFrame:
        self.reads += 1
        return FakeFrame(self.image, self.reads * 0.1, self.reads)

    def close(self) -> None:
        self.closed += 1


def wait_for(predicate: Any, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "timed out waiting for the camera feed"
        time.sleep(0.02)


def test_feed_reads_dice_settles_once_and_stops_when_released() -> None:
    camera = StillDiceCamera()
    feed = CameraFeed("fake", fps=100.0, open_source=lambda spec: camera)
    rolls: list[Any] = []
    got = threading.Event()

    def on_roll(reading: Any) -> None:
        rolls.append(reading)
        got.set()

    feed.on_roll = on_roll
    assert not feed.running and feed.latest() is None
    feed.want("dice-view")
    assert got.wait(20), feed.error
    wait_for(lambda: camera.reads >= 12)
    assert len(rolls) == 1  # dice lying still make exactly one roll
    snap = feed.latest()
    assert snap is not None and snap.rgb.shape == (480, 640, 3) and not snap.moving
    assert sorted(d.value for d in rolls[0].dice) == sorted(camera.truth)
    # The overlay is drawn on a copy: the picture differs from the raw frame (in RGB order).
    assert not np.array_equal(snap.rgb, camera.image[:, :, ::-1])
    feed.want("game")
    feed.release("dice-view")
    time.sleep(0.2)
    assert feed.running  # the game still wants it
    feed.release("game")
    wait_for(lambda: not feed.running)
    feed.close()
    feed.close()
    assert camera.closed == 1


def test_a_failing_camera_is_reported_not_raised() -> None:
    def broken(spec: str) -> Any:
        raise OSError("camera cable pulled")

    feed = CameraFeed("fake", open_source=broken)
    feed.want("dice-view")
    wait_for(lambda: not feed.running)
    assert feed.error == "OSError: camera cable pulled"
    feed.close()


def test_no_camera_setting_gives_no_feed() -> None:
    assert frame_provider_for("none") is None
    feed = frame_provider_for("synthetic")
    assert isinstance(feed, CameraFeed) and feed.spec == "synthetic" and not feed.running
