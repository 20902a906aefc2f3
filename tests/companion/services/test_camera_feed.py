"""The camera feed: frames -> vision -> one settled roll, on a worker thread, only while wanted."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.services.feed import CameraFeed


@dataclass
class FakeFrame:
    image: np.ndarray
    t: float
    index: int


class StillDiceCamera:
    """A rendered tray of known dice, on virtual time: 0.1 s per frame."""

    name = "fake"  # a camera, not the stand-in

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


def thrown(values: tuple[int, ...]) -> list[Any]:
    from vision.synthetic import SynthDie

    return [SynthDie(center=(120.0 + 130 * i, 240.0), size=60.0, angle=10.0 * i, value=v,
                     colour="white") for i, v in enumerate(values)]


def test_feed_reports_a_thrown_roll_once_and_stops_when_released() -> None:
    from companion.services.standin import ThrownDice

    tray = ThrownDice()
    feed = CameraFeed("tray", fps=100.0, open_source=lambda spec: tray)
    rolls: list[Any] = []
    views: list[Any] = []
    got = threading.Event()

    def on_roll(reading: Any) -> None:
        rolls.append(reading)
        got.set()

    feed.on_roll = on_roll
    feed.on_settled = views.append
    feed.expect(())  # a roll from anyone
    assert not feed.running and feed.latest() is None
    feed.want("dice-view")
    tray.throw(thrown((2, 5, 6, 3)))
    assert got.wait(20), feed.error
    reads = tray.reads
    wait_for(lambda: tray.reads >= reads + 12)
    assert len(rolls) == 1  # dice lying still after one throw make exactly one roll
    assert len(views) == 1 and views[0] is rolls[0]  # the roll is also the settled view
    snap = feed.latest()
    assert snap is not None and snap.rgb.shape == (480, 640, 3) and not snap.moving
    assert sorted(d.value for d in rolls[0].dice) == [2, 3, 5, 6]
    # The overlay is drawn on a copy: the picture differs from the plain frame.
    feed.want("game")
    feed.release("dice-view")
    reads = tray.reads
    wait_for(lambda: tray.reads >= reads + 5)  # frames go on coming: a condition, no sleep
    assert feed.running  # the game still wants it
    feed.release("game")
    wait_for(lambda: not feed.running)
    feed.close()
    feed.close()
    assert tray.closed


def test_dice_lying_in_the_tray_or_moved_when_no_roll_is_expected_are_not_rolls() -> None:
    """Last game's dice in the tray when the camera starts are not a roll; a throw while the
    game expects none (a player tidying up) is a settled view for the boards, not a roll; and
    the next throw, once the game expects one, is."""
    from companion.services.standin import ThrownDice

    tray = ThrownDice()
    tray.throw(thrown((4, 4)))
    for _ in range(40):  # the dice come to rest before the camera starts
        tray.read()
    feed = CameraFeed("tray", fps=100.0, open_source=lambda spec: tray)
    rolls: list[Any] = []
    views: list[Any] = []
    feed.on_roll = rolls.append
    feed.on_settled = views.append
    feed.expect(())
    feed.want("game")
    reads = tray.reads
    wait_for(lambda: tray.reads >= reads + 30)
    assert rolls == []  # lying there since before
    feed.expect(None)
    tray.throw(thrown((1, 2, 3)))
    wait_for(lambda: bool(views) and sorted(d.value for d in views[-1].dice) == [1, 2, 3])
    reads = tray.reads
    wait_for(lambda: tray.reads >= reads + 10)
    assert rolls == []  # settled, but no roll was expected
    feed.expect(("Ana",))
    assert feed.expected == ("Ana",)
    tray.throw(thrown((6, 5)))
    wait_for(lambda: len(rolls) >= 1)
    assert sorted(d.value for d in rolls[0].dice) == [5, 6]
    feed.close()


def test_a_failing_camera_is_reported_not_raised() -> None:
    def broken(spec: str) -> Any:
        raise OSError("camera cable pulled")

    feed = CameraFeed("fake", open_source=broken)
    feed.want("dice-view")
    wait_for(lambda: not feed.running)
    assert feed.error == "OSError: camera cable pulled"
    feed.close()


def test_release_then_want_at_once_keeps_the_feed_running() -> None:
    """The hand-off race: a release followed at once by a want (a game attached while the
    dice view closes) must leave the worker running; so must want twice, and close while a
    read is in flight must neither hang nor raise."""
    camera = StillDiceCamera()
    feed = CameraFeed("fake", fps=200.0, open_source=lambda spec: camera)
    for _ in range(25):
        feed.want("dice-view")
        wait_for(lambda: camera.reads > 0)
        feed.release("dice-view")
        feed.want("game")  # at once: the old worker may still be alive
        reads = camera.reads
        wait_for(lambda r=reads: camera.reads > r + 2)  # frames keep coming
        assert feed.running and feed.wanted == {"game"}
        feed.want("game")  # wanted twice: still one worker
        feed.release("game")
        wait_for(lambda: not feed.running)
    slow = threading.Event()

    class SlowCamera(StillDiceCamera):
        def read(self) -> FakeFrame:
            slow.set()
            time.sleep(0.3)
            return super().read()

    cam2 = SlowCamera()
    feed2 = CameraFeed("slow", open_source=lambda spec: cam2)
    feed2.want("game")
    assert slow.wait(10)
    feed2.close()  # a read is in flight
    feed2.close()
    wait_for(lambda: not feed2.running)
    assert cam2.closed == 1 and feed2.error is None
    feed.close()


def test_a_stand_in_shown_for_want_of_a_camera_says_so_and_its_rolls_do_not_count(
        monkeypatch: Any) -> None:
    import cv2

    from hardware.camera import CameraChoice

    class NoWebcam:
        def __init__(self, *_: object) -> None:
            pass

        def isOpened(self) -> bool:
            return False

        def release(self) -> None:
            pass

    monkeypatch.setattr(cv2, "VideoCapture", NoWebcam)
    found = CameraFeed(CameraChoice("opencv:3", "Settings"), config={"camera": {"fps": 30}})
    found.want("dice-view")
    wait_for(lambda: found.latest() is not None or found.error is not None)
    assert found.stand_in and not found.rolls_count, found.error
    assert found.label == "rendered dice, no camera" and "opencv:3" in found.why
    found.close()
    chosen = CameraFeed(CameraChoice("synthetic", "COMPANION_CAMERA"))
    chosen.want("dice-view")
    wait_for(lambda: chosen.latest() is not None or chosen.error is not None)
    assert chosen.stand_in and chosen.rolls_count and chosen.label == "rendered dice, no camera"
    chosen.close()


def test_plain_frames_only_while_someone_asks_for_them() -> None:
    """A code to scan needs the frame without vision's overlay (dice outlines drawn over a QR
    code spoil it): kept in the snapshot only while a wanter asked, then dropped again."""
    camera = StillDiceCamera()
    feed = CameraFeed("fake", fps=100.0, open_source=lambda spec: camera)
    feed.want("dice-view")

    def plain() -> Any:
        snap = feed.latest()
        return None if snap is None else snap.plain

    wait_for(lambda: feed.latest() is not None)
    assert plain() is None
    feed.want("scan", plain=True)
    wait_for(lambda: plain() is not None)
    snap = feed.latest()
    assert snap is not None and np.array_equal(snap.plain, camera.image)
    assert not np.array_equal(snap.rgb[:, :, ::-1], snap.plain)  # the overlay is on rgb only
    feed.release("scan")
    seen = feed.frames
    wait_for(lambda: feed.frames > seen + 1)
    assert plain() is None
    feed.close()


def test_feed_reads_through_the_motion_gate_within_its_budget() -> None:
    """Frames at 30 a second (virtual time): every frame is taken (its motion measured) but
    the full reader runs on at most ``reads_per_s`` of them in any second, most rarely while
    all is still, and a throw is still one roll."""
    from companion.services.standin import ThrownDice

    tray = ThrownDice(fps=30.0)
    feed = CameraFeed("tray", fps=500.0, reads_per_s=6, open_source=lambda spec: tray)
    rolls: list[Any] = []
    feed.on_roll = rolls.append
    feed.expect(())
    feed.want("game")
    wait_for(lambda: feed.frames >= 90)  # three seconds of an empty tray
    idle_reads = feed.reads
    assert idle_reads <= 4  # all still: the first frame, then one every 2 s (and the settle)
    tray.throw(thrown((1, 4, 6)))
    wait_for(lambda: len(rolls) >= 1)
    frames = feed.frames
    wait_for(lambda: feed.frames >= frames + 60)
    feed.close()
    assert len(rolls) == 1 and sorted(d.value for d in rolls[0].dice) == [1, 4, 6]
    times = list(feed.read_times)
    assert all(sum(1 for u in times if t <= u < t + 1.0) <= 6 for t in times)
    assert feed.reads < feed.frames / 2
    snap = feed.latest()
    assert snap is not None and snap.index == feed.frames  # every frame is shown


def test_feed_reads_with_the_reader_it_is_given() -> None:
    """The dice reader is built by whoever builds the feed and given to it (here one without
    models: the classical pipeline); without one, the feed loads the shipped models once."""
    import pytest

    from vision import DiceReader, Profile, Reading

    class Counted(DiceReader):
        def __init__(self) -> None:
            super().__init__()
            self.frames = 0

        def read(self, frame: Any, profile: Profile | None = None) -> Reading:
            self.frames += 1
            return super().read(frame, profile)

    reader = Counted()
    camera = StillDiceCamera()
    feed = CameraFeed("fake", fps=100.0, open_source=lambda spec: camera, reader=reader)
    feed.want("dice-view")
    wait_for(lambda: feed.reads >= 2)
    feed.close()
    snap = feed.latest()
    assert feed.reader is reader and reader.frames == feed.reads
    assert snap is not None and sorted(d.value for d in snap.reading.dice) == sorted(camera.truth)
    shipped = CameraFeed("fake", fps=100.0, open_source=lambda spec: StillDiceCamera())
    assert shipped.reader is None  # nothing loaded until the camera is wanted
    shipped.want("dice-view")
    wait_for(lambda: shipped.reads >= 1)
    first = shipped.reader
    shipped.release("dice-view")
    wait_for(lambda: not shipped.running)
    shipped.want("dice-view")  # a new worker reads with the same reader
    reads = shipped.reads
    wait_for(lambda: shipped.reads > reads)
    shipped.close()
    assert first is not None and first.nets is not None and shipped.reader is first
    with pytest.raises(ValueError, match=r"reader must be a vision\.DiceReader, got str"):
        CameraFeed("tray", reader="classical")  # type: ignore[arg-type]


def test_feed_reads_per_s_bad_input() -> None:
    import pytest

    with pytest.raises(ValueError, match="reads_per_s"):
        CameraFeed("tray", reads_per_s=0)
    with pytest.raises(ValueError, match="reads_per_s"):
        CameraFeed("tray", config={"camera": {"reads_per_s": -2}})
    with pytest.raises(ValueError, match="fps"):
        CameraFeed("tray", fps=float("nan"))
    assert CameraFeed("tray", config={"camera": {"reads_per_s": 5}}).reads_per_s == 5.0


def photo_folder(folder: Any, throws: list[tuple[int, ...]]) -> Any:
    """A folder of photos of settled throws, one per throw (rendered white dice)."""
    import cv2

    from vision.synthetic import Scene, render

    folder.mkdir()
    for i, values in enumerate(throws):
        image = render(Scene(width=640, height=480, dice=tuple(thrown(values))))
        cv2.imwrite(str(folder / f"throw-{i:02d}.png"), image)
    return folder


def test_a_folder_of_photos_is_a_table_each_photo_a_settled_throw_then_its_end_is_said(
        tmp_path: Any, caplog: Any) -> None:
    """COMPANION_CAMERA=replay:FOLDER: each photo is held (here ?hold=0.5 on the replay's
    virtual clock) and given to the game as one roll while a roll is expected; a photo shown
    while none is expected is given once one is; the end of the folder is a state the feed
    says and logs, not an error, and not a silent wait."""
    import logging

    folder = photo_folder(tmp_path / "photos", [(2, 5), (6, 6, 1), (3,)])
    config = {"camera": {"realtime": False, "fps": 20}}
    feed = CameraFeed(f"replay:{folder}?hold=0.5", config=config, fps=200.0)
    rolls: list[Any] = []
    feed.on_roll = rolls.append
    feed.expect(())
    caplog.set_level(logging.WARNING)
    feed.want("game")
    wait_for(lambda: feed.ended is not None or feed.error is not None, 60)
    assert feed.error is None
    assert [sorted(d.value for d in r.dice) for r in rolls] == [[2, 5], [1, 6, 6], [3]]
    assert feed.ended is not None and "has ended" in feed.ended
    assert "no more rolls" in feed.ended and "photos" in feed.ended and "3 images" in feed.ended
    assert any("has ended" in r.getMessage() for r in caplog.records)
    assert not feed.running
    feed.close()


def test_a_folder_of_photos_waits_for_the_game_each_photo_for_one_roll_it_asks_for(
        tmp_path: Any) -> None:
    """Issue 44, item 2: replay:FOLDER held each photo 3 s whatever the game did (five photos
    went by in 15 s of a roll-off). Now a photo is shown until the game asks for a roll again
    (after a call: the next roller, even the same one) or the players ask for the next
    (next_photo); a photo of an empty tray is passed over when a roll is asked for; time alone
    moves nothing on."""
    folder = photo_folder(tmp_path / "photos", [(2, 5), (), (6, 6, 1), (3,), (4, 4)])
    config = {"camera": {"realtime": False, "fps": 20}}
    feed = CameraFeed(f"replay:{folder}", config=config, fps=200.0)
    assert feed.photo_table and not CameraFeed(f"replay:{folder}?hold=3").photo_table
    assert not CameraFeed(f"replay:{folder}", config={"camera": {"hold": 2}}).photo_table
    rolls: list[Any] = []
    feed.on_roll = rolls.append

    def shown() -> list[int]:
        snap = feed.latest()
        return [] if snap is None else sorted(d.value for d in snap.reading.dice)

    def frames_pass(n: int = 60) -> None:  # time goes by: many frames of the same photo
        start = feed.taken
        wait_for(lambda: feed.taken >= start + n)

    feed.want("game")
    wait_for(lambda: feed.latest() is not None)
    frames_pass()
    assert shown() == [2, 5] and rolls == []  # no roll asked for: none given, nothing moves
    feed.expect((), turn=0)
    wait_for(lambda: len(rolls) == 1)
    frames_pass()
    assert len(rolls) == 1 and shown() == [2, 5]  # one roll per photo, however long shown
    feed.expect(("Ana",), turn=1)  # a call later the game asks again: the next photo
    wait_for(lambda: len(rolls) == 2)
    assert sorted(d.value for d in rolls[1].dice) == [1, 6, 6]  # the empty tray passed over
    feed.expect(None, turn=2)  # no roll asked (a keep): the photo stays
    frames_pass()
    assert shown() == [1, 6, 6] and len(rolls) == 2
    assert feed.next_photo()  # the players ask for the next: shown, not yet a roll
    wait_for(lambda: shown() == [3])
    frames_pass()
    assert len(rolls) == 2
    feed.expect(("Ana",), turn=2)  # asked: the photo shown is given
    wait_for(lambda: len(rolls) == 3)
    assert [d.value for d in rolls[2].dice] == [3] and shown() == [3]
    assert feed.next_photo()  # while a roll is asked for: the next photo is given to it
    wait_for(lambda: len(rolls) == 4)
    assert sorted(d.value for d in rolls[3].dice) == [4, 4]
    feed.expect(("Ben",), turn=3)  # past the last photo: the end, said
    wait_for(lambda: feed.ended is not None or feed.error is not None, 60)
    assert feed.error is None and "no more rolls" in str(feed.ended)
    assert len(rolls) == 4
    feed.close()
    assert not CameraFeed("synthetic").next_photo()  # not a table of photos: nothing done


def test_a_photo_is_one_roll_however_long_it_is_held_and_waits_for_a_roll_to_be_expected(
        ) -> None:
    from companion.services.feed import PhotoThrows
    from vision import Reading
    from vision.types import Die

    corners = ((70.0, 70.0), (130.0, 70.0), (130.0, 130.0), (70.0, 130.0))
    die = Die((100.0, 100.0), corners, 0.0, 60.0, 4, "4", "white", 0.99)
    dice, empty = Reading((die,), (480, 640)), Reading.empty((480, 640))
    throws = PhotoThrows()
    assert not throws.update(0, dice, None)  # shown while no roll is expected: kept
    assert throws.update(0, dice, ())  # ... and given once one is
    assert not throws.update(0, dice, ())  # the same photo, filmed again: not another roll
    assert not throws.update(1, empty, ())  # an empty tray is no throw
    assert throws.update(2, dice, ("Ana",))  # the next photo is
