"""Camera sources: lifecycle, timestamps, every backend, unplug/reconnect, selection and config."""

from __future__ import annotations

import itertools
import shutil
import threading
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import (
    CameraFallback,
    Frame,
    OpenCVSource,
    Picamera2Source,
    ReplaySource,
    SyntheticSource,
    choose_spec,
    make_source,
    open_source,
)
from hardware.errors import (
    CameraUnavailable,
    ConfigError,
    EndOfStream,
    SourceClosed,
    UnknownSource,
)


class FakeClock:
    """A monotonic clock the test moves by hand; sleep() advances it."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, dt: float) -> None:
        self.slept.append(dt)
        self.t += dt


def coloured(i: int, w: int = 64, h: int = 48) -> np.ndarray:
    """An image whose mean colour encodes i, so frames can be told apart after compression."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:, :] = ((i * 40) % 256, 255 - (i * 40) % 256, 128)
    return img


@pytest.fixture
def image_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(5):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), coloured(i))
    (folder / "notes.txt").write_text("not an image")
    return folder


@pytest.fixture
def video_file(tmp_path: Path) -> Path:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (64, 48))
    assert writer.isOpened()
    for i in range(6):
        writer.write(coloured(i))
    writer.release()
    return path


# -- Frame and lifecycle ---------------------------------------------------------------------


def test_frame_rejects_non_uint8_images() -> None:
    with pytest.raises(ValueError, match=r"uint8.*float64"):
        Frame(image=np.zeros((4, 4, 3)), t=0.0, index=0)


def test_source_is_context_manager_close_is_idempotent_and_read_after_close_fails(
    image_folder: Path,
) -> None:
    with ReplaySource(image_folder, realtime=False) as src:
        assert src.connected
        assert src.read().index == 0
    assert src.closed and not src.connected
    src.close()  # a second close is harmless
    with pytest.raises(SourceClosed, match=r"replay:.*frames.*closed"):
        src.read()
    assert list(src) == []


# -- Replay ----------------------------------------------------------------------------------


def test_replay_folder_gives_every_image_in_order_on_a_virtual_clock(image_folder: Path) -> None:
    clock = FakeClock(50.0)
    with ReplaySource(image_folder, fps=4, realtime=False, clock=clock, sleep=clock.sleep) as src:
        frames = list(src)
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t for f in frames] == [50.0, 50.25, 50.5, 50.75, 51.0]
    for i, f in enumerate(frames):
        assert np.array_equal(f.image, coloured(i))  # PNG is lossless
    assert clock.slept == []


def test_replay_raises_end_of_stream_and_loops_when_asked(image_folder: Path) -> None:
    with ReplaySource(image_folder, realtime=False) as src:
        for _ in range(5):
            src.read()
        with pytest.raises(EndOfStream, match="end of replay after 5 images"):
            src.read()
    with ReplaySource(image_folder, realtime=False, loop=True) as src:
        frames = [src.read() for _ in range(12)]
    assert np.array_equal(frames[5].image, frames[0].image)
    assert np.array_equal(frames[11].image, coloured(1))
    assert frames[11].index == 11


def test_replay_realtime_paces_reads_and_skips_frames_when_the_reader_is_late(
    image_folder: Path,
) -> None:
    clock = FakeClock(10.0)
    with ReplaySource(image_folder, fps=10, loop=True, clock=clock, sleep=clock.sleep) as src:
        first = src.read()
        second = src.read()
        assert clock.slept == [pytest.approx(0.1)]
        assert second.t == pytest.approx(first.t + 0.1)
        clock.t += 0.35  # the reader was busy: a live camera would have moved on
        late = src.read()
    assert late.t == pytest.approx(clock.t)
    assert np.array_equal(late.image, coloured(4))  # position floor(0.45 * 10) = 4


def test_replay_of_a_video_file(video_file: Path) -> None:
    with ReplaySource(video_file, realtime=False) as src:
        assert src.fps == pytest.approx(20.0)
        frames = list(src)
    assert len(frames) == 6
    assert frames[1].t - frames[0].t == pytest.approx(0.05)
    means = [f.image.mean(axis=(0, 1)) for f in frames]
    assert np.allclose(means[3], coloured(3).mean(axis=(0, 1)), atol=6)


def test_replay_folder_removed_and_restored_reconnects(image_folder: Path, tmp_path: Path) -> None:
    clock = FakeClock()
    src = ReplaySource(
        image_folder, realtime=False, loop=True, reconnect_interval=1.0, clock=clock,
        sleep=clock.sleep,
    )
    with src:
        src.read()
        hidden = tmp_path / "hidden"
        shutil.move(str(image_folder), str(hidden))  # "unplug"
        with pytest.raises(CameraUnavailable, match=r"replay:.*lost.*missing or unreadable"):
            src.read()
        assert not src.connected
        with pytest.raises(CameraUnavailable, match="does not exist"):
            src.read()  # immediate retry fails: still gone
        with pytest.raises(CameraUnavailable, match=r"next reconnect attempt in 1\.0 s"):
            src.read()  # no hammering before the interval
        shutil.move(str(hidden), str(image_folder))  # "plug back in"
        clock.t += 1.0
        frame = src.read()
        assert src.connected and src.reconnections == 1
    assert frame.index == 1


def test_replay_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match=r"replay path .*nowhere does not exist"):
        ReplaySource(tmp_path / "nowhere").open()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraUnavailable, match="holds no images"):
        ReplaySource(empty).open()


# -- OpenCV ----------------------------------------------------------------------------------


def test_opencv_source_reads_a_video_file_with_monotonic_timestamps(video_file: Path) -> None:
    with OpenCVSource(str(video_file)) as src:
        frames = list(src)
    assert [f.index for f in frames] == list(range(6))
    assert all(b.t >= a.t for a, b in itertools.pairwise(frames))
    assert frames[0].image.shape == (48, 64, 3)


def test_opencv_source_loops_a_video_file(video_file: Path) -> None:
    with OpenCVSource(str(video_file), loop=True) as src:
        frames = [src.read() for _ in range(9)]
    assert np.allclose(frames[6].image.mean(), frames[0].image.mean(), atol=3)


class FakeWebcam:
    """Stands in for cv2.VideoCapture(index): a device that can be unplugged."""

    def __init__(self, world: dict[str, Any], index: int | str) -> None:
        self.world = world
        self.index = index
        self.open = world["plugged"]
        self.props: dict[int, float] = {}
        world["opened"] += 1

    def isOpened(self) -> bool:
        return bool(self.open)

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.world["plugged"]:
            return False, None
        self.world["n"] += 1
        return True, coloured(self.world["n"])

    def release(self) -> None:
        self.open = False


def test_opencv_webcam_unplugged_mid_game_then_reconnects() -> None:
    world: dict[str, Any] = {"plugged": True, "opened": 0, "n": 0}
    clock = FakeClock()
    cams: list[FakeWebcam] = []

    def factory(index: int | str) -> FakeWebcam:
        cams.append(FakeWebcam(world, index))
        return cams[-1]

    src = OpenCVSource(0, width=640, height=480, capture_factory=factory, clock=clock,
                       sleep=clock.sleep, reconnect_interval=2.0)
    with src:
        assert cams[0].props[cv2.CAP_PROP_BUFFERSIZE] == 1
        assert cams[0].props[cv2.CAP_PROP_FRAME_WIDTH] == 640
        assert src.read().index == 0
        world["plugged"] = False
        with pytest.raises(CameraUnavailable, match=r"opencv:0: lost \(webcam index 0 returned"):
            src.read()
        with pytest.raises(CameraUnavailable, match="could not open webcam index 0"):
            src.read()
        clock.t += 0.5
        with pytest.raises(CameraUnavailable, match="next reconnect attempt"):
            src.read()
        assert world["opened"] == 2
        world["plugged"] = True
        clock.t += 2.0
        frame = src.read()
    assert frame.index == 1 and src.reconnections == 1
    assert not cams[-1].open  # released on close


def test_opencv_missing_webcam_falls_back_to_synthetic_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.services.standin import stand_in_camera

    monkeypatch.setattr(cv2, "VideoCapture", lambda *_: FakeWebcam(
        {"plugged": False, "opened": 0, "n": 0}, 7))
    with pytest.warns(CameraFallback, match=r"'opencv:7' could not open.*webcam index 7"):
        src = open_source("opencv:7", realtime=False, stand_in=stand_in_camera)
    with src:
        assert src.name == "synthetic"
        assert src.read().image.ndim == 3


def test_iteration_waits_out_an_unplugged_camera() -> None:
    world: dict[str, Any] = {"plugged": True, "opened": 0, "n": 0}
    clock = FakeClock()
    src = OpenCVSource(0, capture_factory=lambda i: FakeWebcam(world, i), clock=clock,
                       sleep=clock.sleep, reconnect_interval=1.0)
    got: list[Frame] = []
    with src:
        for frame in src:
            got.append(frame)
            if len(got) == 2:
                world["plugged"] = False
                # plug back in once the iterator has slept through two retry intervals
                world_sleep = clock.sleep

                def sleep_then_replug(dt: float, _s: Any = world_sleep) -> None:
                    _s(dt)
                    if len(clock.slept) >= 2:
                        world["plugged"] = True

                src._sleep = sleep_then_replug
            if len(got) == 4:
                break
    assert [f.index for f in got] == [0, 1, 2, 3]
    assert src.reconnections == 1 and len(clock.slept) >= 2


# -- picamera2 (fake module) -----------------------------------------------------------------


@dataclass
class FakePicamState:
    frames_before_fail: int | None = None
    captured: int = 0
    configs: list[dict[str, Any]] = field(default_factory=list)
    controls: list[dict[str, Any]] = field(default_factory=list)
    started: int = 0
    closed: int = 0
    released: int = 0
    stopped: bool = False
    waiting: bool = False
    gate: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))


def fake_picamera2_module(state: FakePicamState, cameras: int = 1) -> types.ModuleType:
    class Request:
        def __init__(self, n: int, size: tuple[int, int]) -> None:
            self.n, self.size = n, size

        def make_array(self, name: str) -> np.ndarray:
            w, h = self.size
            assert name == "lores"
            y = np.full((h, w), min(16 + 10 * self.n, 235), np.uint8)  # Y encodes n
            uv = np.full((h // 2, w), 128, np.uint8)
            return np.vstack([y, uv])

        def get_metadata(self) -> dict[str, Any]:
            return {"ExposureTime": 10000 + self.n, "AnalogueGain": 2.0,
                    "ColourGains": (1.8, 1.5), "SensorTimestamp": self.n}

        def release(self) -> None:
            state.released += 1

    class Picamera2:
        def __init__(self, num: int = 0) -> None:
            if num >= cameras:
                raise IndexError("list index out of range")
            self.config: dict[str, Any] = {}

        def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
            return dict(kw)

        def configure(self, config: dict[str, Any]) -> None:
            self.config = config
            state.configs.append(config)

        def start(self) -> None:
            state.started += 1

        def capture_request(self) -> Request:
            state.waiting = True
            got = state.gate.acquire(timeout=5)
            state.waiting = False
            if not got:
                raise TimeoutError("test never released a frame")
            if state.stopped:
                state.stopped = False
                raise RuntimeError("camera stopped")
            if state.frames_before_fail is not None and state.captured >= state.frames_before_fail:
                raise RuntimeError("Camera frontend has timed out!")
            state.captured += 1
            return Request(state.captured, self.config["lores"]["size"])

        def set_controls(self, controls: dict[str, Any]) -> None:
            state.controls.append(dict(controls))

        def stop(self) -> None:
            if state.waiting:
                state.stopped = True
                state.gate.release()  # a blocked capture_request returns

        def close(self) -> None:
            state.closed += 1

    mod = types.ModuleType("picamera2")
    mod.Picamera2 = Picamera2  # type: ignore[attr-defined]
    return mod


def test_picamera2_configures_lores_video_and_locks_exposure_after_settling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = FakePicamState()
    monkeypatch.setitem(__import__("sys").modules, "picamera2", fake_picamera2_module(state))
    clock = FakeClock()
    src = Picamera2Source(lores_size=(64, 48), settle_s=1.0, fps=25, clock=clock)
    with src:
        cfg = state.configs[0]
        assert cfg["lores"] == {"size": (64, 48), "format": "YUV420"}
        assert cfg["main"]["format"] == "RGB888" and cfg["queue"] is False
        assert cfg["controls"]["FrameRate"] == 25.0
        state.gate.release()
        f0 = src.read()
        assert f0.image.shape == (48, 64, 3) and state.controls == []  # still settling
        clock.t += 1.5
        state.gate.release()
        f1 = src.read()
        assert f1.index == 1 and f1.t == clock.t
    assert state.controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 10002,
                               "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}]
    assert src.locked_controls == state.controls[0]
    assert state.released == state.captured and state.closed == 1


def capture_number(frame: Frame) -> int:
    """Undo the fake camera's encoding: BGR grey level = 1.164 * (Y - 16), Y = 16 + 10 n."""
    return round(float(frame.image.mean()) / 11.64)


def test_picamera2_returns_only_the_freshest_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    state = FakePicamState()
    monkeypatch.setitem(__import__("sys").modules, "picamera2", fake_picamera2_module(state))
    with Picamera2Source(lores_size=(64, 48), lock_exposure=False) as src:
        for _ in range(5):
            state.gate.release()
        while src._seq < 5:  # the worker has stored all five captures
            threading.Event().wait(0.01)
        frame = src.read()
        # Y plane encodes the capture number: the newest (5th) frame, not the oldest buffered one
        assert capture_number(frame) == 5
        state.gate.release()
        nxt = src.read()  # never the same frame twice: waits for capture 6
        assert capture_number(nxt) == 6


def test_picamera2_fixed_controls_from_calibration_skip_settling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = FakePicamState()
    monkeypatch.setitem(__import__("sys").modules, "picamera2", fake_picamera2_module(state))
    src = make_source("picamera2", {"camera": {"exposure_time": 8000, "analogue_gain": 1.5,
                                               "colour_gains": [2.0, 1.25],
                                               "lores_size": [64, 48]}})
    with src:
        controls = state.configs[0]["controls"]
        state.gate.release()
        src.read()
    assert controls["AeEnable"] is False and controls["AwbEnable"] is False
    assert controls["ExposureTime"] == 8000 and controls["ColourGains"] == (2.0, 1.25)
    assert state.controls == []  # nothing measured: the calibrated values stand


def test_picamera2_capture_failure_is_a_lost_camera_that_reconnects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = FakePicamState(frames_before_fail=1)
    monkeypatch.setitem(__import__("sys").modules, "picamera2", fake_picamera2_module(state))
    with Picamera2Source(lores_size=(64, 48), reconnect_interval=0.0) as src:
        state.gate.release()
        src.read()
        state.gate.release()
        with pytest.raises(CameraUnavailable, match=r"picamera2: lost \(capture failed: Runtime"):
            src.read()
        state.frames_before_fail = None
        state.gate.release()
        frame = src.read()
    assert src.reconnections == 1 and state.started == 2 and frame.index == 1


def test_picamera2_missing_module_or_camera_explains_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "picamera2", None)
    # apt's folder as on a machine without python3-picamera2 (a Pi with it says "hidden")
    monkeypatch.setattr("hardware.camera.picam.SYSTEM_SITE", tmp_path)
    with pytest.raises(CameraUnavailable, match=r"apt install python3-picamera2.*system-site"):
        Picamera2Source().open()
    monkeypatch.setitem(__import__("sys").modules, "picamera2",
                        fake_picamera2_module(FakePicamState(), cameras=0))
    with pytest.raises(CameraUnavailable, match=r"no Pi camera 0 \(IndexError"):
        Picamera2Source().open()
    with pytest.raises(ConfigError, match="multiple of 64"):
        Picamera2Source(lores_size=(100, 75))


# -- choosing a source -----------------------------------------------------------------------


def test_unknown_source_name_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnknownSource, match=r"unknown camera source 'foo' \(from command line\): "
                       "choose auto, picamera2"):
        open_source("foo")
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    with pytest.raises(UnknownSource, match="'webcam:0'"):
        open_source(config={"camera": {"source": "webcam:0"}})


def test_source_precedence_argument_env_config(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = {"camera": {"source": "replay:/x"}}
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    assert choose_spec(None, cfg) == "replay:/x"
    assert choose_spec(None, None) == "auto"
    monkeypatch.setenv("COMPANION_CAMERA", "opencv:1")
    assert choose_spec(None, cfg) == "opencv:1"
    assert choose_spec("synthetic", cfg) == "synthetic"


def test_precedence_with_the_apps_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """command line > COMPANION_CAMERA > the app's Settings > [camera] source > auto."""
    from hardware.camera import CameraChoice, choose

    cfg = {"camera": {"source": "replay:/x"}}
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    assert choose(None, cfg) == CameraChoice("replay:/x", "config file")
    assert choose(None, cfg, setting="opencv:0") == CameraChoice("opencv:0", "Settings")
    assert choose(None, cfg, setting="") == CameraChoice("replay:/x", "config file")
    monkeypatch.setenv("COMPANION_CAMERA", "picamera2")
    assert choose(None, cfg, setting="opencv:0") == CameraChoice("picamera2", "COMPANION_CAMERA")
    assert choose("synthetic", cfg, setting="opencv:0") == CameraChoice("synthetic",
                                                                         "command line")
    assert choose("synthetic").stand_in and not choose("picamera2").stand_in
    monkeypatch.setenv("COMPANION_CAMERA", "bogus")
    with pytest.raises(UnknownSource, match=r"'bogus' \(from COMPANION_CAMERA\)"):
        choose(None, cfg)


def test_auto_passes_over_a_backend_that_fails_to_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi camera stack that will not even load (numpy 1/2 clash: ValueError) is passed over
    like a missing camera, and the reason is kept in the warning."""
    from companion.services.standin import stand_in_camera
    from hardware.camera import picam

    def broken(self: object) -> None:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setattr(picam.Picamera2Source, "open", broken)
    monkeypatch.setattr(cv2, "VideoCapture", lambda *_: FakeWebcam(
        {"plugged": False, "opened": 0, "n": 0}, 0))
    with pytest.warns(CameraFallback, match=r"numpy.dtype size changed.*rendered dice"):
        src = open_source("auto", realtime=False, stand_in=stand_in_camera)
    with src:
        assert src.name == "synthetic"


def test_make_source_parses_specs(tmp_path: Path) -> None:
    assert isinstance(make_source("opencv:2"), OpenCVSource)
    assert make_source("opencv:2").device == 2  # type: ignore[attr-defined]
    assert make_source("opencv:clip.mp4").device == "clip.mp4"  # type: ignore[attr-defined]
    assert make_source("picamera2:1").camera_num == 1  # type: ignore[attr-defined]
    rep = make_source(f"replay:{tmp_path}", {"camera": {"fps": 5, "loop": True}})
    assert isinstance(rep, ReplaySource) and rep.fps == 5 and rep.loop
    assert isinstance(make_source("synthetic"), SyntheticSource)
    with pytest.raises(ConfigError, match="replay needs a path"):
        make_source("replay:")


def test_explicit_source_with_fallback_off_raises(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match="does not exist"):
        open_source(f"replay:{tmp_path / 'gone'}", fallback=False)


def test_bad_camera_config_names_the_key() -> None:
    with pytest.raises(ConfigError, match=r"\[camera\] fsp: unknown setting"):
        make_source("synthetic", {"camera": {"fsp": 10}})
    with pytest.raises(ConfigError, match=r"\[camera\] fps: expected a number, got 'fast'"):
        make_source("synthetic", {"camera": {"fps": "fast"}})
    with pytest.raises(ConfigError, match=r"\[camera\] loop: expected true or false, got 1"):
        make_source("synthetic", {"camera": {"loop": 1}})
    with pytest.raises(ConfigError, match=r"lores_size: expected a list of 2, got \[640\]"):
        make_source("picamera2", {"camera": {"lores_size": [640]}})


def test_auto_without_any_camera_and_no_fallback_lists_what_was_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    monkeypatch.setitem(__import__("sys").modules, "picamera2", None)
    monkeypatch.setattr(cv2, "VideoCapture", lambda *_: FakeWebcam(
        {"plugged": False, "opened": 0, "n": 0}, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(CameraUnavailable, match=r"no camera found: .*picamera2.*opencv:0"):
            open_source(fallback=False)


def test_replay_holds_each_photo_for_hold_seconds_then_ends(image_folder: Path) -> None:
    """A folder of photos as a still table: each image is read again for ``hold`` seconds
    (0.5 s at 4 frames a second: 2 frames), :attr:`photo` says which image it is."""
    with ReplaySource(image_folder, fps=4, hold=0.5, realtime=False) as src:
        frames, photos = [], []
        for _ in range(10):
            frames.append(src.read())
            photos.append(src.photo)
        with pytest.raises(EndOfStream, match="end of replay after 5 images"):
            src.read()
    assert photos == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert np.array_equal(frames[1].image, coloured(0))
    assert np.array_equal(frames[9].image, coloured(4))
    with pytest.raises(ValueError, match="hold must be"):
        ReplaySource(image_folder, hold=-1)


def test_replay_steps_to_the_next_photo_only_when_asked(image_folder: Path) -> None:
    """A table of photos that waits (``step``): each image is read again and again, however
    many frames go by, until :meth:`next_photo`; past the last, the end of the replay."""
    with ReplaySource(image_folder, fps=4, step=True, realtime=False) as src:
        photos = [src.photo for _ in range(30) if src.read() is not None]
        assert photos == [0] * 30
        src.next_photo()
        frame = src.read()
        assert src.photo == 1 and np.array_equal(frame.image, coloured(1))
        frame.image[:] = 0  # a reader that scribbles on a frame changes no later frame
        assert np.array_equal(src.read().image, coloured(1))
        for _ in range(3):
            src.next_photo()
        assert src.read() is not None and src.photo == 4
        src.next_photo()
        with pytest.raises(EndOfStream, match="end of replay after 5 images"):
            src.read()
    stepped = make_source(f"replay:{image_folder}", step=True)
    assert isinstance(stepped, ReplaySource) and stepped.step
    held = make_source(f"replay:{image_folder}?hold=2", step=True)  # the spec's hold wins
    assert isinstance(held, ReplaySource) and not held.step and held.hold == 2


def test_replay_spec_takes_hold_after_a_question_mark(image_folder: Path) -> None:
    src = make_source(f"replay:{image_folder}?hold=2.5")
    assert isinstance(src, ReplaySource) and src.hold == 2.5 and src.path == image_folder
    assert make_source(f"replay:{image_folder}", {"camera": {"hold": 4}}).hold == 4
    assert make_source(f"replay:{image_folder}?hold=0").hold is None  # a film
    with pytest.raises(ConfigError, match=r"unknown replay option 'speed'"):
        make_source(f"replay:{image_folder}?speed=2")
    with pytest.raises(ConfigError, match=r"hold must be a number of seconds.*'soon'"):
        make_source(f"replay:{image_folder}?hold=soon")
