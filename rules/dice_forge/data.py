"""The data of Dice Forge read from the TOML files beside this module, and face parsing.

A face is known by the words players say ("3 gold or 2 glory", "red shield"); :func:`face_info`
reads what a face does from those words, so the data files only list names.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

RESOURCES: tuple[str, ...] = ("gold", "sun", "moon", "glory", "ancient", "loyalty")
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
SPECIAL_KINDS: tuple[str, ...] = ("shield", "boar", "chaos", "misfortune")

Parts = tuple[tuple[str, int], ...]


@functools.cache
def load(name: str) -> dict[str, Any]:
    """One data file (``faces``, ``boards`` or ``cards``) as a plain dict."""
    folder = resources.files("rules.dice_forge").joinpath("data")
    text = folder.joinpath(f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class FaceInfo:
    """What a die face does, read from its name.

    ``kind`` is gain | choice | triple | mirror | ship | golem | shield | boar | chaos |
    misfortune. ``parts`` are the gains of a gain face; ``options`` the alternatives of a
    choice face; ``colour`` the colour of a coloured face.
    """

    name: str
    kind: str
    parts: Parts = ()
    options: tuple[Parts, ...] = ()
    colour: str = ""

    @property
    def shows(self) -> Parts:
        """Every resource symbol the face shows (all options of a choice face)."""
        if self.kind == "gain":
            return self.parts
        if self.kind == "choice":
            return tuple(p for opt in self.options for p in opt)
        return ()


def parse_parts(text: str) -> Parts:
    """Read "2 gold + 1 moon" into ``(("gold", 2), ("moon", 1))``; ValueError if not parts."""
    parts: list[tuple[str, int]] = []
    for chunk in text.split(" + "):
        words = chunk.split()
        if len(words) != 2 or not words[0].isdigit() or words[1] not in RESOURCES:
            raise ValueError(f"{text!r}: expected 'N resource' joined by ' + '")
        n = int(words[0])
        if not 0 < n <= 99:
            raise ValueError(f"{text!r}: amount {n} out of range")
        parts.append((words[1], n))
    return tuple(parts)


def parts_text(parts: Parts) -> str:
    """The words of some parts, the inverse of :func:`parse_parts`."""
    return " + ".join(f"{n} {r}" for r, n in parts)


@functools.cache
def face_info(name: str) -> FaceInfo:
    """What the face called ``name`` does. Raises ValueError for words that are no face."""
    if name in ("triple", "mirror", "ship"):
        return FaceInfo(name, name)
    if name in ("moon golem", "sun golem"):
        return FaceInfo(name, "golem")
    words = name.split()
    if len(words) == 2 and words[0] in COLOURS and words[1] in SPECIAL_KINDS:
        return FaceInfo(name, words[1], colour=words[0])
    if " or " in name:
        options = tuple(parse_parts(o) for o in name.split(" or "))
        if any(len(o) != 1 for o in options):
            raise ValueError(f"{name!r}: each option of a choice face is one resource")
        return FaceInfo(name, "choice", options=options)
    return FaceInfo(name, "gain", parts=parse_parts(name))


def is_face(name: str) -> bool:
    """True if ``name`` names a die face."""
    try:
        face_info(name)
    except ValueError:
        return False
    return True


@functools.cache
def sanctuary() -> dict[int, tuple[int, int, tuple[str, ...]]]:
    """Sanctuary pools: pool number -> (cost, level, faces)."""
    return {p["pool"]: (p["cost"], p["level"], tuple(p["faces"]))
            for p in load("faces")["sanctuary"]}


@functools.cache
def face_cost(name: str) -> int | None:
    """The gold cost of a Sanctuary face, None if the face is not sold there."""
    for cost, _, faces in sanctuary().values():
        if name in faces:
            return cost
    return None


@functools.cache
def face_level(name: str) -> int:
    """Upgrade level of a face: the rank of its Sanctuary cost, 0 with no equivalent there."""
    for _, level, faces in sanctuary().values():
        if name in faces:
            return level
    return 0


CELESTIAL_FACES: tuple[str, ...] = tuple(load("faces")["celestial"]["faces"])


def describe_face(name: str) -> str:
    """What a face does, in a sentence a screen can show.

    >>> describe_face("3 gold or 2 glory")
    'gain 3 gold or 2 glory'
    >>> describe_face("red shield")
    'gain 5 glory if your other die gave sun, else 2 sun'
    """
    if name in CELESTIAL_FACES:
        celestial = {"12 gold": "gain 12 gold", "5 glory": "gain 5 glory",
                     "3 glory + choice": "gain 3 glory and 3 gold or 1 moon or 1 sun",
                     "mirror": "apply a face that is face-up on any player's die",
                     "choose face": "turn one of your faces up and apply it",
                     "double upgrade": "upgrade one of your faces by two levels"}
        return celestial[name]
    info = face_info(name)
    faces = load("faces")
    if info.kind == "gain":
        return "gain " + " and ".join(f"{n} {r}" for r, n in info.parts)
    if info.kind == "choice":
        return "gain " + " or ".join(parts_text(o) for o in info.options)
    if info.kind == "shield":
        spec = faces["shield"][info.colour]
        return f"gain 5 glory if your other die gave {spec['resource']}, else {spec['reward_b']}"
    if info.kind == "chaos":
        spec = faces["chaos"][info.colour]
        return (f"gain {spec['reward_a']} if your other die gave {spec['resource']}, "
                f"else {spec['reward_b']}")
    return {
        "triple": "in a divine blessing, apply your other die's face three times",
        "mirror": "apply a face that is face-up on an opponent's die",
        "ship": "you may forge one Sanctuary face for 2 gold less",
        "golem": "move your golem one space forward on the Goddess board",
        "boar": f"gain 1 sun or 1 moon; the owner of the {info.colour} Boar card gains "
                "1 sun, 1 moon or 3 glory",
        "misfortune": f"gain 1 ancient or 1 loyalty; the owner of the {info.colour} Mirror of "
                      "Misfortune applies both your dice",
    }[info.kind]
