"""Calibration profiles: strict, versioned JSON files wrapping vision's Profile.

One file per camera and table setup, in ``<config>/profiles/<name>.json`` of a
:class:`ProfileStore`; the file ``<config>/current-profile`` names the one in use. The config
folder is the app's to choose (``companion.paths.config_dir()``), never this package's.

Reading is strict: every key is known (an unknown key is rejected by its path, e.g.
``palette.colours[2].colour``), every value has its type (a wrong one is named with what was
expected), older layouts are upgraded step by step (v1 -> v2 -> v3), and a damaged file gives a
:class:`ProfileError` saying which file and what is wrong, never a crash or a silent default.

Layout, version 4::

    {"format": "table-companion-profile", "version": 4, "name": ..., "camera": ..., "notes": ...,
     "table": null | {"source", "tray_mm", "px_per_mm", "die_mm", "reprojection_px"},
     "palette": null | {"light", "colours": [{"name", "lab", "spread", "samples"}]},
     "face_sets": [{"name", "template", "samples": {label: n}, "cv_accuracy", "features",
                    "captures": {label: [PNG as base64, ...]}}],
     "zones": [{"seat", "space", "polygon": [[x, y], ...]}],
     "dice": {"examples": [{"label", "heat", "group", "origin", "crop": JPEG as base64}],
              "views", "cv_accuracy", "cv_untaught"},
     "profile": <vision Profile.to_dict()>}

``dice`` is what the table taught the reader about its own dice (:mod:`calibration.teach`):
its examples as small crops (so the head is fitted again when the models change) and how
the last fit read the views left out; the vision profile's ``head`` is the fitted head.
Version 3 is version 4 without ``dice`` and without the vision profile's ``head`` (upgraded
with nothing taught). Version 2 is version 3 without ``captures``, without ``zones`` (the
board regions of :mod:`calibration.zones`; upgraded with none) and with vision face sets that
do not name their
``features`` (they are vision's first descriptor, ``polar-fourier-1``). Version 1 (the first
layout, flat): ``{"version": 1, "name", "polygon", "homography", "table_size", "die_size",
"colours": {name: [b, g, r]}, "face_sets": [...]}``.

A face set is examples described by one version of vision's face features. When vision
describes faces differently (the stored set names other ``features``), the set is learned
again on load from its stored captures; a set without captures (every set from a version 2
file) cannot be, so it is taken out of the vision profile, kept listed as stale
(:func:`stale_face_sets`) and the profile's notes say to learn it again.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import msgspec.inspect
import numpy as np

from calibration.teach import StoredExample, TaughtDice
from calibration.zones import Zone, ZoneError, check_zones
from vision.profile import (
    FACE_FEATURES,
    LEGACY_FACE_FEATURES,
    Profile,
    TableHead,
    face_features,
)

FORMAT = "table-companion-profile"
VERSION = 4
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
POINTER = "current-profile"
#: True while a profile is built from a file: its vision profile is then already in the form a
#: save writes, so the normalising round trip of ``CalibrationProfile`` is skipped.
_STORED_FORM: contextvars.ContextVar[bool] = contextvars.ContextVar("stored_form", default=False)


class ProfileError(ValueError):
    """A profile file or value that cannot be used; the message names the file and the key."""


# --------------------------------------------------------------------------- strict schema
# Each layout declared once as msgspec structs: every key required (``X | None``: it may be
# null), no unknown key. Maps (label -> count, label -> captures, v1's colour -> BGR) are
# checked value by value (:func:`_map`), so that a refusal names the map's key.

Point = tuple[float, float]
Polygon = Annotated[list[Point], msgspec.Meta(min_length=3)]
Homography = Annotated[list[float], msgspec.Meta(min_length=9, max_length=9)]
Triple = tuple[float, float, float]
BGR = tuple[int, int, int]


class _Strict(msgspec.Struct, forbid_unknown_fields=True):
    pass


class _VisionTable(_Strict):
    polygon: Polygon
    homography: Homography | None
    table_size: tuple[int, int] | None


class _VisionColour(_Strict):
    name: str
    bgr: BGR
    tolerance: float


class _VisionPalette(_Strict):
    colours: Annotated[list[_VisionColour], msgspec.Meta(min_length=1)]


class _VisionFaceSetV2(_Strict):
    name: str
    labels: Annotated[list[str], msgspec.Meta(min_length=1)]
    threshold: float
    examples: Annotated[list[tuple[int, list[float]]], msgspec.Meta(min_length=1)]


class _VisionFaceSet(_VisionFaceSetV2):
    features: str


class _VisionProfileV2(_Strict):
    table: _VisionTable | None
    palette: _VisionPalette | None
    face_sets: list[_VisionFaceSetV2]
    die_size: float | None


class _VisionProfile(_VisionProfileV2):
    face_sets: list[_VisionFaceSet]  # type: ignore[assignment]


class _VisionHead(_Strict):
    model: str
    heat_min: float
    weights: list[list[float]] | None
    bias: list[float] | None
    dice: int
    value_min: float


class _VisionProfileV4(_VisionProfile):
    head: _VisionHead | None


class _Zone(_Strict):
    seat: int
    space: str
    polygon: Polygon


class _FaceInfoV2(_Strict):
    name: str
    template: str | None
    samples: dict[str, Any]  # label -> int
    cv_accuracy: float | None
    features: str

    def __post_init__(self) -> None:
        _map(self.samples, int, "samples")


class _FaceInfo(_FaceInfoV2):
    captures: dict[str, Any]  # label -> [PNG as base64, ...]

    def __post_init__(self) -> None:
        super().__post_init__()
        _map(self.captures, list[str], "captures")


class _Table(_Strict):
    source: str
    tray_mm: tuple[float, float] | None
    px_per_mm: float | None
    die_mm: float
    reprojection_px: float | None


class _Colour(_Strict):
    name: str
    lab: Triple
    spread: Triple
    samples: int


class _Palette(_Strict):
    light: float
    colours: list[_Colour]


class _FileV2(_Strict):
    format: str
    version: int
    name: str
    camera: str
    notes: str
    table: _Table | None
    palette: _Palette | None
    face_sets: list[_FaceInfoV2]
    profile: _VisionProfileV2


class _FileV3(_FileV2):
    face_sets: list[_FaceInfo]  # type: ignore[assignment]
    zones: list[_Zone]
    profile: _VisionProfile


class _Example(_Strict):
    label: Annotated[int, msgspec.Meta(ge=0, le=6)]
    heat: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
    group: Annotated[int, msgspec.Meta(ge=0)]
    origin: Literal["photo", "tap", "play"]
    crop: str


class _Dice(_Strict):
    examples: list[_Example]
    views: Annotated[int, msgspec.Meta(ge=0)]
    cv_accuracy: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | None
    cv_untaught: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | None


class _FileV4(_FileV3):
    dice: _Dice
    profile: _VisionProfileV4


class _FileV1(_Strict):
    version: int
    name: str
    polygon: Polygon | None
    homography: Homography | None
    table_size: tuple[int, int] | None
    die_size: float | None
    colours: dict[str, Any]  # colour name -> BGR
    face_sets: list[_VisionFaceSetV2]

    def __post_init__(self) -> None:
        _map(self.colours, BGR, "colours")


def _map(values: dict[str, Any], kind: Any, key: str) -> None:
    """Each value of a map as ``kind``; raised when ...: ValueError naming the map's key."""
    for name, value in values.items():
        try:
            msgspec.convert(value, kind, strict=True)
        except msgspec.ValidationError as e:
            raise ValueError(_words(e, f"{key}.{name}")) from None


def _check(data: Any, layout: type[_Strict]) -> None:
    """Raised when ...: ProfileError naming the key (its path) when ``data`` is not the
    layout."""
    try:
        msgspec.convert(data, layout, strict=True)
    except msgspec.ValidationError as e:
        raise ProfileError(_words(e, layout=layout)) from None


def _allowed(layout: type[_Strict], path: str) -> list[str]:
    """The keys the layout allows at ``path`` (``palette.colours[1]``)."""
    info: Any = msgspec.inspect.type_info(layout)
    for step in ["", *re.findall(r"[^.\[\]]+", path)]:
        if step.isdigit():
            info = info.item_type if hasattr(info, "item_type") else info.item_types[int(step)]
        elif step:
            info = {f.name: f.type for f in info.fields}[step]
        while isinstance(info, msgspec.inspect.UnionType | msgspec.inspect.Metadata):
            info = (info.type if isinstance(info, msgspec.inspect.Metadata) else
                    next(t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)))
    return [f.name for f in info.fields]


def _words(e: msgspec.ValidationError, base: str = "",
           layout: type[_Strict] | None = None) -> str:
    """msgspec's refusal with the key's path first: ``unknown key 'palette.colours[1].hue'``,
    ``missing key 'camera'``, ``version: expected `int`, got `str```."""
    message, found, at = str(e).rpartition(" - at `$")
    if not found:
        message, at = str(e), "`"
    path = base + at.rstrip("`")
    inner = re.fullmatch(r"(\S+): (.*)", message)  # a map's value, named by _map
    if inner and not message.startswith(("Expected", "Object", "Invalid")):
        return _words(msgspec.ValidationError(inner[2]), f"{path}.{inner[1]}".lstrip("."))
    path = path.lstrip(".")
    key = re.fullmatch(r"Object (contains unknown|missing required) field `(.+)`", message)
    if key:
        full = f"{path}.{key[2]}" if path else key[2]
        if key[1].endswith("unknown") and layout is not None:
            return f"unknown key '{full}' (allowed here: {', '.join(_allowed(layout, path))})"
        return f"{'unknown' if key[1].endswith('unknown') else 'missing'} key '{full}'"
    return f"{path or 'the file'}: {_json_words(message)}"


#: msgspec's names of JSON's kinds of value, as a profile's messages say them.
_JSON_KINDS = {"int": "an integer", "float": "a number", "str": "a string",
               "bool": "true or false", "array": "a list", "object": "an object", "null": "null"}


def _json_words(message: str) -> str:
    """``Expected `float | null`, got `bool``` -> ``expected a number, got true or false``;
    ``Expected `array` of length >= 9`` -> ``expected at least 9 items``."""
    kinds = re.fullmatch(r"Expected `([^`]+)`, got `([^`]+)`", message)
    if kinds:
        want = [_JSON_KINDS.get(k, k) for k in kinds[1].split(" | ") if k != "null"]
        return f"expected {' or '.join(want)}, got {_JSON_KINDS.get(kinds[2], kinds[2])}"
    items = re.fullmatch(r"Expected `array` of length (>= |<= )?(\d+)(, got \d+)?", message)
    if items:
        bound = {">= ": "at least ", "<= ": "at most "}.get(items[1] or "", "")
        return f"expected {bound}{items[2]} items{items[3] or ''}"
    return message[0].lower() + message[1:]


# --------------------------------------------------------------------------- the profile


def features_id() -> str:
    """A fingerprint of vision's face features: examples learned with other features are
    meaningless, so a face set records the fingerprint it was learned with."""
    yy, xx = np.mgrid[0:48, 0:48]
    probe = np.stack([(xx * 5) % 256, (yy * 3) % 256, ((xx + yy) * 7) % 256], axis=2)
    probe[16:32, 20:28] = 20
    f = face_features(probe.astype(np.uint8))
    text = f"{FACE_FEATURES}:{len(f)}:" + ",".join(f"{v:.3f}" for v in f)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class TableInfo:
    source: str
    tray_mm: tuple[float, float] | None
    px_per_mm: float | None
    die_mm: float
    reprojection_px: float | None


@dataclass(frozen=True)
class ColourInfo:
    name: str
    lab: tuple[float, float, float]
    spread: tuple[float, float, float]
    samples: int


@dataclass(frozen=True)
class PaletteInfo:
    light: float
    colours: tuple[ColourInfo, ...]


@dataclass(frozen=True)
class FaceSetInfo:
    """What calibration knows about a face set: its game template, captures per face, the
    cross-validated accuracy, the features fingerprint (:func:`features_id`) it was learned
    with, and the captured crops themselves (PNG, base64), kept to learn it again."""

    name: str
    template: str | None
    samples: dict[str, int]
    cv_accuracy: float | None
    features: str
    captures: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class CalibrationProfile:
    """One camera-and-table setup: vision's Profile plus what calibration measured.

    The vision profile is kept in its stored form (face features rounded as saved), so a
    profile equals itself after a save and a load.
    """

    name: str
    profile: Profile = field(default_factory=Profile)
    camera: str = ""
    notes: str = ""
    table: TableInfo | None = None
    palette: PaletteInfo | None = None
    face_sets: tuple[FaceSetInfo, ...] = ()
    zones: tuple[Zone, ...] = ()
    dice: TaughtDice = field(default_factory=TaughtDice)

    def __post_init__(self) -> None:
        check_name(self.name)
        try:
            object.__setattr__(self, "zones", check_zones(self.zones))
        except ZoneError as e:
            raise ProfileError(f"profile {self.name!r}: zones: {e}") from e
        if not isinstance(self.profile, Profile):
            raise ProfileError(f"profile {self.name!r}: profile must be a vision.Profile")
        if not _STORED_FORM.get():  # made in code: keep it as a save and a load would
            object.__setattr__(self, "profile", Profile.from_dict(
                json.loads(json.dumps(self.profile.to_dict()))))
        known = {f.name for f in self.profile.face_sets}
        now = features_id()
        for info in self.face_sets:
            # a stale set (other features, nothing to learn it again from) has no vision set
            if info.name not in known and info.features == now:
                raise ProfileError(f"profile {self.name!r}: face set info {info.name!r} has no "
                                   f"face set (have {sorted(known)})")

    def to_dict(self) -> dict[str, Any]:
        t, p = self.table, self.palette
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "camera": self.camera,
            "notes": self.notes,
            "table": None if t is None else {
                "source": t.source, "tray_mm": list(t.tray_mm) if t.tray_mm else None,
                "px_per_mm": t.px_per_mm, "die_mm": t.die_mm,
                "reprojection_px": t.reprojection_px},
            "palette": None if p is None else {
                "light": p.light,
                "colours": [{"name": c.name, "lab": list(c.lab), "spread": list(c.spread),
                             "samples": c.samples} for c in p.colours]},
            "face_sets": [{"name": f.name, "template": f.template, "samples": dict(f.samples),
                           "cv_accuracy": f.cv_accuracy, "features": f.features,
                           "captures": {k: list(v) for k, v in f.captures.items()}}
                          for f in self.face_sets],
            "zones": [z.to_dict() for z in self.zones],
            "dice": {"examples": [{"label": e.label, "heat": e.heat, "group": e.group,
                                   "origin": e.origin, "crop": e.crop}
                                  for e in self.dice.examples],
                     "views": self.dice.views, "cv_accuracy": self.dice.cv_accuracy,
                     "cv_untaught": self.dice.cv_untaught},
            "profile": self.profile.to_dict(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1, allow_nan=False) + "\n"

    def with_dice(self, dice: TaughtDice, head: TableHead | None) -> CalibrationProfile:
        """A copy that has learned ``dice`` (its examples), reading with ``head``."""
        return replace(self, dice=dice, profile=replace(self.profile, head=head))

    def forget_dice(self) -> CalibrationProfile:
        """A copy that has forgotten everything its table taught about its dice."""
        return self.with_dice(TaughtDice(), None)

    def with_face_set(self, fs: Any, info: FaceSetInfo) -> CalibrationProfile:
        """A copy with ``fs`` (a vision FaceSet) added, replacing one of the same name."""
        sets = (*(f for f in self.profile.face_sets if f.name != fs.name), fs)
        infos = (*(i for i in self.face_sets if i.name != fs.name), info)
        return replace(self, profile=replace(self.profile, face_sets=sets), face_sets=infos)


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ProfileError(f"profile name {name!r} is not valid: use 1-64 letters, digits, "
                           "'.', '_' or '-', starting with a letter or digit")
    return name


def _tuple3(v: list[Any]) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))


def _relearn(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Face sets learned with other face features than vision's: learned again from their
    stored captures, or (without captures) taken out of the vision profile and left stale.
    Returns the data with those sets replaced and a note per set."""
    sets = data["profile"]["face_sets"]
    if all(fs["features"] == FACE_FEATURES for fs in sets):
        return data, []
    data = json.loads(json.dumps(data))  # re-learning edits it: work on a copy
    sets = data["profile"]["face_sets"]
    from calibration import faces

    infos = {f["name"]: f for f in data["face_sets"]}
    kept, notes = [], []
    for i, fs in enumerate(sets):
        if fs["features"] == FACE_FEATURES:
            kept.append(fs)
            continue
        info = infos.get(fs["name"])
        if info is None or not info["captures"]:
            notes.append(f"face set {fs['name']!r} was learned with vision's older face features "
                         f"({fs['features']}) and has no stored captures: it is left out until "
                         "it is learned again (companion calibrate faces)")
            continue
        try:
            crops = {lab: [faces.decode_crop(c, f"face_sets.{fs['name']}.captures.{lab}[{j}]")
                           for j, c in enumerate(v)] for lab, v in info["captures"].items()}
            new = faces.learn(crops, fs["name"])
        except ValueError as e:  # CalibrationError is one
            raise ProfileError(f"profile.face_sets[{i}]: cannot be learned again from its "
                               f"captures: {e}") from e
        kept.append(new.to_dict())
        info.update(features=features_id(), cv_accuracy=None,
                    samples={k: len(v) for k, v in crops.items()})
        notes.append(f"face set {fs['name']!r} was learned again from its captures with "
                     f"vision's face features {FACE_FEATURES}")
    data = {**data, "profile": {**data["profile"], "face_sets": kept}}
    return data, notes


def _from_v4(data: dict[str, Any]) -> CalibrationProfile:
    _check(data, _FileV4)
    if data["format"] != FORMAT:
        raise ProfileError(f"format: expected {FORMAT!r}, got {data['format']!r}")
    names_ = [f["name"] for f in data["face_sets"]]
    if len(set(names_)) != len(names_):
        raise ProfileError(f"face_sets: names must be unique, got {names_}")
    data, notes = _relearn(data)
    try:
        vp = Profile.from_dict(data["profile"])
    except (KeyError, TypeError, ValueError) as e:
        raise ProfileError(f"profile: {e}") from e
    zones = []
    for i, z in enumerate(data["zones"]):
        try:
            zones.append(Zone.from_dict(z))
        except ZoneError as e:
            raise ProfileError(f"zones[{i}]: {e}") from e
    t, p = data["table"], data["palette"]
    dice = _dice(data["dice"])
    token = _STORED_FORM.set(True)  # read from a file: already in its stored form
    try:
        return replace(_profile_from_v4(data, vp, notes, zones, t, p), dice=dice)
    finally:
        _STORED_FORM.reset(token)


def _dice(d: dict[str, Any]) -> TaughtDice:
    """The taught dice of a file, every example's crop decoded once to check it (a damaged
    or oversized crop is named: ``dice.examples[3].crop: not an image``)."""
    from calibration.images import CalibrationError

    examples = tuple(StoredExample(e["label"], float(e["heat"]), e["group"], e["origin"],
                                   e["crop"]) for e in d["examples"])
    for i, e in enumerate(examples):
        try:
            e.example(f"dice.examples[{i}]")
        except CalibrationError as err:
            raise ProfileError(str(err)) from None
    return TaughtDice(examples, d["views"], d["cv_accuracy"], d["cv_untaught"])


def _profile_from_v4(data: dict[str, Any], vp: Profile, notes: list[str], zones: list[Zone],
                     t: Any, p: Any) -> CalibrationProfile:
    return CalibrationProfile(
        name=check_name(data["name"]), profile=vp, camera=data["camera"],
        notes="; ".join(n for n in (data["notes"], *notes) if n),
        table=None if t is None else TableInfo(
            t["source"], (float(t["tray_mm"][0]), float(t["tray_mm"][1])) if t["tray_mm"]
            else None, None if t["px_per_mm"] is None else float(t["px_per_mm"]),
            float(t["die_mm"]),
            None if t["reprojection_px"] is None else float(t["reprojection_px"])),
        palette=None if p is None else PaletteInfo(float(p["light"]), tuple(
            ColourInfo(c["name"], _tuple3(c["lab"]), _tuple3(c["spread"]), c["samples"])
            for c in p["colours"])),
        face_sets=tuple(FaceSetInfo(f["name"], f["template"], dict(f["samples"]),
                                    None if f["cv_accuracy"] is None else float(f["cv_accuracy"]),
                                    f["features"],
                                    {k: tuple(v) for k, v in f["captures"].items()})
                        for f in data["face_sets"]),
        zones=tuple(zones),
    )


def _upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (flat: polygon, colours as name -> BGR) to version 2."""
    _check(data, _FileV1)
    table = None
    if data["polygon"] is not None:
        table = {"polygon": data["polygon"], "homography": data["homography"],
                 "table_size": data["table_size"]}
    colours = [{"name": n, "bgr": bgr, "tolerance": 60.0} for n, bgr in data["colours"].items()]
    return {
        "format": FORMAT, "version": 2, "name": data["name"], "camera": "",
        "notes": "upgraded from a version 1 profile", "table": None, "palette": None,
        "face_sets": [{"name": f["name"], "template": None, "samples": {}, "cv_accuracy": None,
                       "features": "unknown"} for f in data["face_sets"]],
        "profile": {"table": table, "palette": {"colours": colours} if colours else None,
                    "face_sets": data["face_sets"], "die_size": data["die_size"]},
    }


def _upgrade_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 to 3: face sets gain ``captures`` (none were kept), vision's face sets name
    their features (version 2 knew only ``polar-fourier-1``), and there are no board zones."""
    _check(data, _FileV2)
    vp = data["profile"]
    return {
        **data, "version": 3,
        "face_sets": [{**f, "captures": {}} for f in data["face_sets"]],
        "zones": [],
        "profile": {**vp, "face_sets": [{**f, "features": LEGACY_FACE_FEATURES}
                                        for f in vp["face_sets"]]},
    }


def _upgrade_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 to 4: nothing taught about the table's dice yet (no examples, no head)."""
    _check(data, _FileV3)
    return {**data, "version": 4,
            "dice": {"examples": [], "views": 0, "cv_accuracy": None, "cv_untaught": None},
            "profile": {**data["profile"], "head": None}}


UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _upgrade_v1,
                                                                  2: _upgrade_v2,
                                                                  3: _upgrade_v3}


def from_dict(data: Any) -> CalibrationProfile:
    """A profile from parsed JSON of any known version (upgraded); ProfileError otherwise."""
    if not isinstance(data, dict):
        raise ProfileError(f"a profile must be a JSON object, got {type(data).__name__}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ProfileError(f"version: expected an integer, got {json.dumps(version)}")
    if version > VERSION:
        raise ProfileError(f"version {version} is newer than this companion understands "
                           f"(up to {VERSION}); update the companion")
    if version < 1:
        raise ProfileError(f"version {version} is not a profile version (1..{VERSION})")
    while version < VERSION:
        data = UPGRADES[version](data)
        version = data["version"]
    return _from_v4(data)


def loads(text: str, source: str = "<profile>") -> CalibrationProfile:
    """Parse a profile file's text; errors name ``source``."""
    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON allows")

    try:
        data = json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise ProfileError(f"{source}: nested too deeply to be a profile; the file is "
                           "damaged - re-run the calibration or restore a copy") from None
    except (json.JSONDecodeError, ValueError) as e:
        raise ProfileError(f"{source}: not valid JSON ({e}); the file is damaged - "
                           "re-run the calibration or restore a copy") from e
    try:
        return from_dict(data)
    except ProfileError as e:
        raise ProfileError(f"{source}: {e}") from e
    except (ValueError, TypeError, KeyError) as e:
        raise ProfileError(f"{source}: {e}") from e
    except RecursionError:
        raise ProfileError(f"{source}: nested too deeply to be a profile") from None


# --------------------------------------------------------------------------- the store


def _write_atomic(path: Path, text: str) -> None:
    """Write ``path`` whole: under a fresh name made beside it (``O_EXCL | O_NOFOLLOW``, so
    never through a link planted there), flushed to disk, renamed over it relative to the
    folder held open. The same rule as ``hardware.files.Folder``, which calibration may not
    import (ARCHITECTURE.md: calibration sees only vision)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        tmp = f".{path.name}.{secrets.token_hex(4)}.part"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    finally:
        os.close(folder)


#: The most a profile file may hold (a real one with its face sets is well under 1 MB).
MAX_PROFILE_BYTES = 16_000_000


class NotAPlainFile(OSError):
    """A profile path that is a FIFO, a device or a socket, or too large (``strerror`` says
    which)."""


def read_bounded(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of the plain file ``path``: a FIFO or a device is refused
    unopened (or, opened without blocking, by fstat), and a larger file is refused. The same
    rule as ``hardware.files.read_bounded``, which calibration may not import
    (ARCHITECTURE.md: calibration sees only vision)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotAPlainFile(0, "not a plain file (a FIFO, a device or a folder)", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotAPlainFile(0, "not a plain file (a FIFO or a device)", str(path))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise NotAPlainFile(0, f"larger than {limit} bytes: too large for a profile", str(path))
    return data


def load_file(path: Path) -> CalibrationProfile:
    """Read a profile from any file path; ProfileError naming the file on any problem."""
    try:
        text = read_bounded(path, MAX_PROFILE_BYTES).decode("utf-8")
    except FileNotFoundError as e:
        raise ProfileError(f"{str(path)!r}: no such profile file") from e
    except NotAPlainFile as e:
        raise ProfileError(f"{str(path)!r}: {e.strerror}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ProfileError(f"{str(path)!r}: cannot be read ({e})") from e
    return loads(text, repr(str(path)))


@dataclass(frozen=True)
class ProfileStore:
    """The profiles of one config folder: ``<folder>/profiles/<name>.json``, and the file
    ``<folder>/current-profile`` naming the one in use.

    The folder is given by whoever opens the store (the app passes its one config folder), so
    this package never decides where the user's files are.
    """

    folder: Path

    @property
    def profiles_dir(self) -> Path:
        return self.folder / "profiles"

    def profile_path(self, name: str) -> Path:
        return self.profiles_dir / f"{check_name(name)}.json"

    def save(self, profile: CalibrationProfile) -> Path:
        """Write the profile to its file (atomically); returns the path."""
        path = self.profile_path(profile.name)
        _write_atomic(path, profile.dumps())
        return path

    def load(self, name: str) -> CalibrationProfile:
        """Read the stored profile called ``name``."""
        path = self.profile_path(name)
        if not path.exists():
            have = self.names()
            raise ProfileError(f"no profile named {name!r}; stored: {', '.join(have) or 'none'}")
        p = load_file(path)
        if p.name != name:
            raise ProfileError(f"{str(path)!r}: holds a profile named {p.name!r}, not {name!r}")
        return p

    def names(self) -> list[str]:
        d = self.profiles_dir
        if not d.is_dir():
            return []
        return sorted(p.stem for p in d.glob("*.json") if NAME_RE.match(p.stem))

    def current_name(self) -> str | None:
        """The name in the current-profile pointer, or None when none is chosen."""
        ptr = self.folder / POINTER
        if not ptr.exists():
            return None
        try:
            name = read_bounded(ptr, 1000).decode("utf-8").strip()
        except NotAPlainFile as e:
            raise ProfileError(f"{str(ptr)!r}: {e.strerror}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ProfileError(f"{str(ptr)!r}: cannot be read ({e})") from e
        try:
            return check_name(name)
        except ProfileError as e:
            raise ProfileError(f"{str(ptr)!r}: {e}") from e

    def use(self, name: str) -> CalibrationProfile:
        """Make ``name`` the current profile (it must load cleanly); returns it."""
        p = self.load(name)
        _write_atomic(self.folder / POINTER, name + "\n")
        return p

    def current(self) -> CalibrationProfile | None:
        """The current profile, or None when none is chosen; ProfileError if it is broken."""
        name = self.current_name()
        return None if name is None else self.load(name)

    def load_or_new(self, name: str, camera: str = "") -> CalibrationProfile:
        """The stored profile ``name``, or a new empty one (a broken file is an error)."""
        if self.profile_path(name).exists():
            return self.load(name)
        return CalibrationProfile(name=name, camera=camera)

    def summary(self, name: str) -> Mapping[str, Any]:
        """One line's worth about a stored profile, or its error."""
        try:
            p = self.load(name)
        except ProfileError as e:
            return {"name": name, "error": str(e)}
        vp = p.profile
        return {
            "name": name, "camera": p.camera,
            "table": (p.table.source if p.table else ("yes" if vp.table else "no")),
            "colours": len(vp.palette.colours) if vp.palette else 0,
            "face_sets": [f.name for f in vp.face_sets],
            "stale_face_sets": stale_face_sets(p),
            "zones": len(p.zones),
            "dice_taught": p.dice.dice,
            "head_models": vp.head.model if vp.head else None,
        }


def stale_face_sets(profile: CalibrationProfile) -> list[str]:
    """Face sets learned with other face features than this vision computes: their examples
    no longer match what vision measures, so they must be learned again."""
    now = features_id()
    return [f.name for f in profile.face_sets if f.features != now]
