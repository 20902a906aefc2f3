"""Camera sources and how one is chosen.

Like gpiozero's pin factories, in this order (:func:`choose`): the ``source=`` argument (the
command line), the ``COMPANION_CAMERA`` environment variable, the app's own setting (its
Settings screen), ``[camera] source`` in the config file, else ``auto``: the Pi camera, then
webcam 0, then the stand-in. Names:

- ``picamera2`` or ``picamera2:N``: the Pi camera (N-th camera);
- ``opencv:N`` a USB webcam by index, ``opencv:PATH`` a video file;
- ``replay:PATH``: a folder of images or a video at its own pace; ``replay:PATH?hold=S`` holds
  each image of a folder S seconds, as a still table (a photo of a settled throw); a folder
  whose photos wait for the game (``step``: the next one when asked) is the app's choice;
- ``synthetic``: rendered dice rolls (the stand-in when no camera is present). What it draws is
  given by the caller (``stand_in=``): this package knows devices, not dice.

An unknown name raises :class:`UnknownSource` naming it. A source that cannot open falls back to
the stand-in with a :class:`CameraFallback` warning saying why (``fallback=False`` raises).
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from hardware.camera.base import DeviceLost, Frame, FrameSource
from hardware.camera.opencv import OpenCVSource
from hardware.camera.picam import Picamera2Source
from hardware.camera.replay import ReplaySource
from hardware.camera.synthetic import SyntheticSource, SyntheticTruth
from hardware.errors import CameraUnavailable, ConfigError, UnknownSource
from hardware.schema import checked

__all__ = [
    "CAMERA_KEYS",
    "CameraChoice",
    "CameraFallback",
    "DeviceLost",
    "Frame",
    "FrameSource",
    "OpenCVSource",
    "Picamera2Source",
    "ReplaySource",
    "StandIn",
    "SyntheticSource",
    "SyntheticTruth",
    "choose",
    "choose_spec",
    "make_source",
    "open_source",
]

log = logging.getLogger(__name__)

ENV_VAR = "COMPANION_CAMERA"
CHOICES = "auto, picamera2, opencv:N, replay:PATH or synthetic"
KNOWN = ("auto", "picamera2", "opencv", "replay", "synthetic")

#: Builds the stand-in camera from the ``[camera]`` options it may use (width, height, fps,
#: seed, speed, realtime): the caller's renderer inside a :class:`SyntheticSource`.
StandIn = Callable[[Mapping[str, Any]], FrameSource]


@dataclass(frozen=True)
class CameraChoice:
    """Which camera was asked for and by whom: ``origin`` is "command line",
    "COMPANION_CAMERA", "Settings", "config file" or "default"."""

    spec: str
    origin: str

    @property
    def stand_in(self) -> bool:
        """True when the stand-in itself was asked for (its rolls are then the players')."""
        return self.spec.partition(":")[0].strip().lower() == "synthetic"

    @property
    def auto(self) -> bool:
        return self.spec.strip().lower() == "auto"


class CameraFallback(RuntimeWarning):
    """Warned when the chosen camera cannot open and another source is used instead."""


Number = int | float
Pair = tuple[Number, Number]


class CameraTable(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[camera]`` table of the config file: every key it may hold, with its type."""

    source: str | UnsetType = UNSET
    width: int | UnsetType = UNSET
    height: int | UnsetType = UNSET
    fps: Number | UnsetType = UNSET
    loop: bool | UnsetType = UNSET
    realtime: bool | UnsetType = UNSET
    hold: Number | UnsetType = UNSET
    speed: Number | UnsetType = UNSET
    seed: int | UnsetType = UNSET
    main_size: Pair | UnsetType = UNSET
    lores_size: Pair | UnsetType = UNSET
    use_lores: bool | UnsetType = UNSET
    settle_s: Number | UnsetType = UNSET
    reads_per_s: Number | UnsetType = UNSET
    lock_exposure: bool | UnsetType = UNSET
    exposure_time: int | UnsetType = UNSET
    analogue_gain: Number | UnsetType = UNSET
    colour_gains: Pair | UnsetType = UNSET
    reconnect_interval: Number | UnsetType = UNSET


#: Keys allowed in the ``[camera]`` table of the config file.
CAMERA_KEYS: tuple[str, ...] = CameraTable.__struct_fields__


def camera_options(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``[camera]`` table of a parsed config, checked against :class:`CameraTable`: the
    keys it gives (pairs as tuples).

    Raised when ...: ConfigError naming the key for an unknown key or a value of the wrong type.
    """
    if not config:
        return {}
    table = checked(config.get("camera", {}), CameraTable, "[camera]", ConfigError)
    return {key: value for key in CAMERA_KEYS
            if (value := getattr(table, key)) is not UNSET}


def choose(source: str | None = None, config: Mapping[str, Any] | None = None, *,
           setting: str | None = None) -> CameraChoice:
    """Which camera applies, and why: argument, $COMPANION_CAMERA, the app's setting, the
    config file's ``[camera] source``, else ``auto``.

    Raised when ...: UnknownSource for a name that is none of the known sources (a typo is
    named with where it came from, never silently replaced); ConfigError for a bad [camera].
    """
    for candidate, origin in ((source, "command line"), (os.environ.get(ENV_VAR), ENV_VAR),
                              (setting, "Settings"),
                              (camera_options(config).get("source"), "config file")):
        if candidate is not None and str(candidate).strip():
            spec = str(candidate).strip()
            if spec.partition(":")[0].strip().lower() not in KNOWN:
                raise UnknownSource(f"unknown camera source {spec!r} (from {origin}): choose "
                                    f"{CHOICES}")
            return CameraChoice(spec, origin)
    return CameraChoice("auto", "default")


def choose_spec(source: str | None = None, config: Mapping[str, Any] | None = None) -> str:
    """Which source name applies: argument, then $COMPANION_CAMERA, then config, then ``auto``."""
    return choose(source, config).spec


def make_source(
    spec: str, config: Mapping[str, Any] | None = None, *, stand_in: StandIn | None = None,
    **overrides: Any
) -> FrameSource:
    """Build (but do not open) the source named by ``spec``; ``stand_in`` builds the synthetic
    one (without it, the stand-in has nothing to draw and cannot open).

    Raised when ...: UnknownSource for a name that is none of the known sources; ConfigError for
    a spec with a bad argument (``opencv:`` with nothing after it, ``replay:`` without a path).
    """
    opts = camera_options(config)
    opts.update(overrides)
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    common = {k: opts[k] for k in ("reconnect_interval",) if k in opts}
    if name == "picamera2":
        num = _int_arg(spec, arg, default=0)
        fixed: dict[str, Any] = {}
        if "exposure_time" in opts:
            fixed["ExposureTime"] = opts["exposure_time"]
        if "analogue_gain" in opts:
            fixed["AnalogueGain"] = opts["analogue_gain"]
        if "colour_gains" in opts:
            fixed["ColourGains"] = opts["colour_gains"]
        kw = {k: opts[k] for k in ("main_size", "lores_size", "use_lores", "fps", "settle_s",
                                    "lock_exposure") if k in opts}
        return Picamera2Source(num, fixed_controls=fixed or None, **kw, **common)
    if name == "opencv":
        device: int | str
        if not arg:
            device = 0
        elif arg.strip().isdigit():
            device = int(arg)
        else:
            device = arg
        cv_keys = ("width", "height", "fps", "loop")
        cv_kw: dict[str, Any] = {k: opts[k] for k in cv_keys if k in opts}
        return OpenCVSource(device, **cv_kw, **common)
    if name == "replay":
        if not arg:
            raise ConfigError(
                f"camera source {spec!r}: replay needs a path, e.g. replay:clips/roll1"
            )
        path, query = replay_query(spec, arg)
        rp_kw: dict[str, Any] = {k: opts[k] for k in ("fps", "loop", "realtime", "hold", "step")
                                 if k in opts}
        if "hold" in query:  # a hold given in the spec: photos held that long, not stepped
            rp_kw["step"] = False
        rp_kw.update(query)
        return ReplaySource(path, **rp_kw, **common)
    if name == "synthetic":
        syn_kw: dict[str, Any] = {
            k: opts[k] for k in ("width", "height", "fps", "seed", "speed", "realtime") if k in opts
        }
        if stand_in is not None:
            return stand_in(syn_kw)
        return SyntheticSource(**syn_kw)
    raise UnknownSource(f"unknown camera source {spec!r}: choose {CHOICES}")


def replay_query(spec: str, arg: str) -> tuple[str, dict[str, float]]:
    """A replay's path and its options after ``?`` (``replay:photos?hold=3``: each photo is
    held 3 seconds). Raised when ...: ConfigError naming the spec for an unknown option or a
    hold that is not a number of seconds >= 0."""
    path, sep, query = arg.partition("?")
    if not sep:
        return arg, {}
    out: dict[str, float] = {}
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key.strip() != "hold":
            raise ConfigError(f"camera source {spec!r}: unknown replay option {key!r}; "
                              "known: hold (seconds each photo is shown, e.g. ?hold=3)")
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if not (seconds >= 0 and seconds < 3600):
            raise ConfigError(f"camera source {spec!r}: hold must be a number of seconds "
                              f"from 0 to 3600 (0: one frame per image), got {value!r}")
        out["hold"] = seconds
    return path, out


def _int_arg(spec: str, arg: str, *, default: int) -> int:
    if not arg:
        return default
    try:
        return int(arg)
    except ValueError:
        raise ConfigError(f"camera source {spec!r}: expected a camera number after ':'") from None


def open_source(
    source: str | None = None,
    config: Mapping[str, Any] | None = None,
    *,
    fallback: bool = True,
    stand_in: StandIn | None = None,
    setting: str | None = None,
    **overrides: Any,
) -> FrameSource:
    """Choose, build and open a camera source (see the module docstring for the order).

    ``auto`` tries the Pi camera, then webcam 0; a backend that fails in any way (not only
    "no camera": a library that will not load) is passed over with its reason kept. When
    nothing opens, the stand-in is used with a :class:`CameraFallback` warning saying why.

    Raised when ...: UnknownSource for an unknown name (never falls back: a typo should be fixed);
    CameraUnavailable when the source cannot open and ``fallback`` is False, or when even the
    stand-in cannot open.
    """
    spec = choose(source, config, setting=setting).spec
    if spec.lower() == "auto":
        tried: list[str] = []
        for candidate in ("picamera2", "opencv:0"):
            src = make_source(candidate, config, **overrides)
            try:
                return src.open()
            except CameraUnavailable as exc:
                tried.append(str(exc))
            except Exception as exc:  # a backend that cannot even load: next camera, say why
                tried.append(f"{candidate}: {type(exc).__name__}: {exc}")
            src.close()
        if not fallback:
            raise CameraUnavailable("no camera found: " + "; ".join(tried))
        why = "no camera found: " + "; ".join(tried)
        warnings.warn(f"{why}; showing rendered dice", CameraFallback, stacklevel=2)
        return _open_stand_in(why, config, overrides, stand_in)
    src = make_source(spec, config, stand_in=stand_in, **overrides)
    try:
        return src.open()
    except CameraUnavailable as exc:
        src.close()
        if not fallback or spec.lower().startswith("synthetic"):
            raise
        warnings.warn(
            f"camera source {spec!r} could not open, showing rendered dice: {exc}",
            CameraFallback,
            stacklevel=2,
        )
        return _open_stand_in(f"camera source {spec!r} could not open ({exc})", config,
                              overrides, stand_in)


def _open_stand_in(
    why: str, config: Mapping[str, Any] | None, overrides: Mapping[str, Any],
    stand_in: StandIn | None,
) -> FrameSource:
    src = make_source("synthetic", config, stand_in=stand_in, **overrides)
    try:
        return src.open()
    except CameraUnavailable as exc:
        raise CameraUnavailable(f"{why}, and the stand-in failed too ({exc})") from exc
