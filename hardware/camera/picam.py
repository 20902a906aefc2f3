"""The Raspberry Pi camera through picamera2 (imported only when this source connects).

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and imports libcamera at
module level, so it cannot be imported off a Pi; this module only imports it inside ``_connect``
(through :func:`import_picamera2`). Any failure to load it becomes a :class:`Picamera2LoadError`
(a ``CameraUnavailable``) that names the real cause and its fix, so ``auto`` moves on to the next
camera and ``companion doctor`` can say what to do. The usual cause on Raspberry Pi OS Bookworm:
apt's simplejpeg (which picamera2 imports) is built for numpy 1.x, and this venv has numpy 2
(OpenCV 5 needs it); the lock adds a numpy-2 simplejpeg on aarch64 with Python 3.11 to shadow
it. Trixie's apt simplejpeg (Python 3.13) is built for numpy 2 and loads as it is.

How it runs: a video configuration with a full-size ``main`` stream and a small ``lores`` stream
(what the dice reader sees), ``queue=False`` so no stale buffered frame is handed out, and a
worker thread that keeps only the newest frame. After ``settle_s`` seconds of automatic exposure
the worker reads the metadata and fixes ExposureTime, AnalogueGain and ColourGains with AeEnable
and AwbEnable off, so die colours do not drift as hands and dice move under the camera.
"""

from __future__ import annotations

import importlib.metadata
import logging
import re
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from hardware.camera.base import Clock, DeviceLost, FrameSource, Sleep
from hardware.errors import CameraUnavailable, ConfigError

log = logging.getLogger(__name__)

#: What a compiled module built for another numpy says when it is loaded (numpy 1.x builds
#: beside numpy 2, and the reverse): Cython's size check, and numpy's own import checks.
_NUMPY_ABI = re.compile(
    r"numpy\.(dtype|ndarray) size changed|compiled using NumPy 1\.x|_ARRAY_API not found"
    r"|numpy\.core\.multiarray failed to import|numpy\.core\._multiarray_umath"
)
#: Where Debian's apt puts Python packages (those a --system-site-packages venv sees).
SYSTEM_SITE = Path("/usr/lib/python3/dist-packages")


class Picamera2LoadError(CameraUnavailable):
    """Raised when picamera2 cannot be imported: ``cause`` says why, ``fix`` what to do.

    ``kind`` is ``missing`` (not installed), ``hidden`` (installed, invisible to this venv),
    ``numpy`` (a module built for another numpy) or ``broken`` (anything else).
    """

    def __init__(self, kind: str, cause: str, fix: str) -> None:
        super().__init__(f"{cause}; {fix}")
        self.kind = kind
        self.cause = cause
        self.fix = fix


def import_picamera2() -> Any:
    """picamera2's ``Picamera2`` class, imported now.

    Raised when ...: Picamera2LoadError for any failure to load the picamera2 stack (not
    installed, invisible to the venv, a module built for another numpy, anything else), with
    the cause named by :func:`explain_import_error`.
    """
    try:
        from picamera2 import Picamera2
    except Exception as exc:
        raise explain_import_error(exc) from exc
    return Picamera2


def explain_import_error(exc: BaseException) -> Picamera2LoadError:
    """What a failed ``from picamera2 import Picamera2`` means and what fixes it."""
    if isinstance(exc, ModuleNotFoundError) and exc.name in ("picamera2", None):
        if (SYSTEM_SITE / "picamera2").is_dir():
            return Picamera2LoadError(
                "hidden",
                f"picamera2 is installed in {SYSTEM_SITE} but this Python does not see it "
                "(a venv made without --system-site-packages)",
                "delete .venv and run ./start.sh again: on a Pi it makes the venv with "
                "--system-site-packages")
        return Picamera2LoadError(
            "missing", "picamera2 is not installed",
            "on Raspberry Pi OS: sudo apt install python3-picamera2 (./start.sh does it), used "
            "from a venv made with --system-site-packages; plain Debian has no picamera2: use a "
            "USB webcam (COMPANION_CAMERA=opencv:0)")
    if isinstance(exc, ModuleNotFoundError):
        return Picamera2LoadError(
            "missing", f"picamera2 needs the module {exc.name!r}, which is not installed",
            f"sudo apt install python3-{exc.name} (Raspberry Pi OS installs it with "
            "python3-picamera2); the venv's Python must be the system's /usr/bin/python3")
    module, where = _failing_module(exc.__traceback__)
    detail = f"{type(exc).__name__}: {exc}"
    if _NUMPY_ABI.search(str(exc)):
        fix = (f"install a numpy-2 build of {module} into the venv: "
               f".tools/bin/uv pip install --python .venv {module}")
        if module == "simplejpeg":
            fix = ("run ./start.sh again: on 64-bit Raspberry Pi OS Bookworm it installs the "
                   "locked numpy-2 build of simplejpeg into .venv, which picamera2 then uses")
        return Picamera2LoadError(
            "numpy",
            f"picamera2 cannot load: {module}{where} was built for a different numpy than "
            f"this environment's numpy {_version('numpy')} ({detail})", fix)
    return Picamera2LoadError(
        "broken", f"picamera2 failed to load in {module}{where} ({detail})",
        "check that `/usr/bin/python3 -c 'from picamera2 import Picamera2'` works; if not, "
        "sudo apt install --reinstall python3-picamera2")


def _failing_module(tb: TracebackType | None) -> tuple[str, str]:
    """The top-level package whose import raised (not numpy's own checks, nor importlib), and
    ' (its folder)' when known."""
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        name = str(frame.f_globals.get("__name__") or "")
        top = name.partition(".")[0]
        if not top or top in ("numpy", "importlib", "hardware") or top.startswith("_frozen"):
            continue
        file = frame.f_globals.get("__file__")
        folder = f" ({Path(file).parent})" if isinstance(file, str) and "/" in file else ""
        return top, folder
    return "picamera2", ""


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "(unknown)"


class Picamera2Source(FrameSource):
    """Frames from the Pi camera ``camera_num``: BGR images of the ``lores`` stream by default.

    ``fixed_controls`` (e.g. saved by calibration: ExposureTime, AnalogueGain, ColourGains) are
    applied at start instead of settling and measuring. ``locked_controls`` tells what was fixed.
    ``read()`` blocks until a frame newer than the last one returned arrives (at most
    ``frame_timeout`` seconds; longer silence counts as a lost camera).
    """

    def __init__(
        self,
        camera_num: int = 0,
        *,
        main_size: tuple[int, int] = (1280, 960),
        lores_size: tuple[int, int] = (640, 480),
        use_lores: bool = True,
        fps: float = 30.0,
        settle_s: float = 1.0,
        lock_exposure: bool = True,
        fixed_controls: Mapping[str, Any] | None = None,
        frame_timeout: float = 2.0,
        reconnect_interval: float = 2.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        super().__init__(reconnect_interval=reconnect_interval, clock=clock, sleep=sleep)
        if use_lores and (lores_size[0] % 64 or lores_size[1] % 2):
            raise ConfigError(
                f"camera lores size {lores_size[0]}x{lores_size[1]}: width must be a multiple of "
                "64 and height even (YUV420 rows then carry no padding), e.g. 640x480 or 320x240"
            )
        self.name = "picamera2" if camera_num == 0 else f"picamera2:{camera_num}"
        self.camera_num = camera_num
        self.main_size = tuple(main_size)
        self.lores_size = tuple(lores_size)
        self.use_lores = use_lores
        self.fps = fps
        self.settle_s = settle_s
        self.lock_exposure = lock_exposure
        self.fixed_controls = dict(fixed_controls) if fixed_controls else None
        self.frame_timeout = frame_timeout
        self.locked_controls: dict[str, Any] | None = None
        self.configuration: Any = None
        self._cam: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._latest: tuple[np.ndarray, float, int] | None = None
        self._seq = 0
        self._delivered = -1
        self._worker_error: str | None = None

    # -- connection ---------------------------------------------------------------------------
    def _connect(self) -> None:
        Picamera2 = import_picamera2()
        try:
            cam = Picamera2(self.camera_num)
        except Exception as exc:  # IndexError / RuntimeError when no camera is attached
            raise DeviceLost(
                f"no Pi camera {self.camera_num} ({type(exc).__name__}: {exc})"
            ) from exc
        self._cam = cam
        controls: dict[str, Any] = {"FrameRate": float(self.fps)}
        if self.fixed_controls:
            controls.update({"AeEnable": False, "AwbEnable": False}, **self.fixed_controls)
        kwargs: dict[str, Any] = {
            "main": {"size": self.main_size, "format": "RGB888"},
            "buffer_count": 4,
            "queue": False,
            "controls": controls,
        }
        if self.use_lores:
            kwargs["lores"] = {"size": self.lores_size, "format": "YUV420"}
        try:
            config = cam.create_video_configuration(**kwargs)
            cam.configure(config)
            cam.start()
        except Exception as exc:
            raise DeviceLost(f"Pi camera {self.camera_num} failed to start: {exc}") from exc
        self.configuration = config
        self.locked_controls = dict(self.fixed_controls) if self.fixed_controls else None
        self._stop = threading.Event()
        with self._cond:
            self._worker_error = None
            self._latest = None
        self._thread = threading.Thread(
            target=self._run, args=(cam, self._stop), name=f"{self.name}-capture", daemon=True
        )
        self._thread.start()

    def _disconnect(self) -> None:
        self._stop.set()
        cam, self._cam = self._cam, None
        thread, self._thread = self._thread, None
        # Stop the camera first so a capture_request the worker is blocked in returns.
        self._call(cam, "stop")
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=max(self.frame_timeout, 1.0))
        self._call(cam, "close")

    @staticmethod
    def _call(cam: Any, step: str) -> None:
        if cam is None:
            return
        try:
            getattr(cam, step)()
        except Exception:  # the camera may already be gone
            log.debug("picamera2 %s failed", step, exc_info=True)

    # -- the worker thread --------------------------------------------------------------------
    def _run(self, cam: Any, stop: threading.Event) -> None:
        started = self._clock()
        stream = "lores" if self.use_lores else "main"
        while not stop.is_set():
            try:
                request = cam.capture_request()
                try:
                    array = request.make_array(stream)
                    metadata = request.get_metadata()
                finally:
                    request.release()
            except Exception as exc:
                if stop.is_set():
                    return
                with self._cond:
                    self._worker_error = f"capture failed: {type(exc).__name__}: {exc}"
                    self._cond.notify_all()
                return
            t = self._clock()
            try:
                image = self._to_bgr(array)
                if (self.lock_exposure and self.locked_controls is None
                        and t - started >= self.settle_s):
                    self._lock_exposure(cam, metadata)
            except Exception as exc:
                with self._cond:
                    self._worker_error = f"bad frame: {type(exc).__name__}: {exc}"
                    self._cond.notify_all()
                return
            with self._cond:
                self._latest = (image, t, self._seq)
                self._seq += 1
                self._cond.notify_all()

    def _to_bgr(self, array: np.ndarray) -> np.ndarray:
        if not self.use_lores:
            return np.ascontiguousarray(array[:, :, :3])  # RGB888 is stored B, G, R: OpenCV order
        w, h = self.lores_size
        yuv = np.ascontiguousarray(array[: h * 3 // 2, :w])
        return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)

    def _lock_exposure(self, cam: Any, metadata: Mapping[str, Any]) -> None:
        """Fix exposure, gain and white balance at what auto mode settled on."""
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        if "ExposureTime" in metadata:
            controls["ExposureTime"] = int(metadata["ExposureTime"])
        if "AnalogueGain" in metadata:
            controls["AnalogueGain"] = float(metadata["AnalogueGain"])
        if "ColourGains" in metadata:
            red, blue = metadata["ColourGains"]
            controls["ColourGains"] = (float(red), float(blue))
        try:
            cam.set_controls(controls)
        except Exception:
            log.warning("picamera2: could not lock exposure/white balance", exc_info=True)
            return
        self.locked_controls = controls
        log.info("picamera2: exposure and white balance locked at %s", controls)

    # -- reading ------------------------------------------------------------------------------
    def _grab(self) -> tuple[np.ndarray, float | None]:
        # Real time, not the injectable clock: this is a wait for the worker thread.
        deadline = time.monotonic() + self.frame_timeout
        with self._cond:
            while True:
                if self._worker_error is not None:
                    raise DeviceLost(self._worker_error)
                latest = self._latest
                if latest is not None and latest[2] > self._delivered:
                    self._delivered = latest[2]
                    return latest[0], latest[1]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise DeviceLost(f"no frame for {self.frame_timeout:.1f} s")
                self._cond.wait(timeout=min(remaining, 0.1))
