"""Camera readings -> Dice Forge's ``Rolled`` calls, with uncertain dice flagged.

Pure: no Kivy. A reading is a ``vision.Reading`` (its ``.dice`` are ``vision.Die`` with
``.face`` (a face-set label or None), ``.confidence`` and ``.center``).
Dice Forge dice carry icon faces, so only a calibrated face set gives labels; its labels are
the engine's face words (``"1 gold"``, ``"3 gold or 2 glory"``) or the same words written with
``-`` or ``_`` instead of spaces (``"3_gold_or_2_glory"``). Without labels, tapping the faces
always works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice_forge import Rolled
from vision import Reading

#: The modules a table chooses from before the first call.
MODULES = ("none", "titans", "goddess")
#: Below this confidence a die's face is shown for the players to confirm by touch.
MIN_CONFIDENCE = 0.6


def face_name(label: str | None) -> str | None:
    """The engine's face words for a face-set label (None stays None)."""
    if label is None:
        return None
    words = label.replace("_", " ").replace("-", " ").split()
    return " ".join(words) or None


@dataclass(frozen=True)
class RolledReading:
    """What the camera says a player's dice show.

    ``faces``: one face per die of the roll (die 1 first; None when unreadable);
    ``uncertain``: per die, True when the players must confirm or correct it by touch;
    ``problem``: why the reading cannot be used as it is ("" when it can);
    ``dice``: per die of the roll, the index in the reading's dice of the die read for it.
    """

    faces: tuple[str | None, ...]
    uncertain: tuple[bool, ...]
    problem: str = ""
    dice: tuple[int, ...] = ()

    @property
    def certain(self) -> bool:
        return not self.problem and not any(self.uncertain)


def read_roll(reading: Reading, dice: Sequence[Sequence[str]], which: Sequence[int] = (0, 1),
              min_confidence: float = MIN_CONFIDENCE) -> RolledReading:
    """Match the dice in ``reading`` to the player's dice ``which`` (0 = die 1, 1 = die 2).

    ``dice`` are the faces of the player's two dice (from the engine's state). Each seen face
    is matched to the die that carries it; when both dice carry it, dice are taken left to
    right (smaller x first). A face no die carries, a missing die, or low confidence is
    flagged uncertain.
    """
    where = sorted(range(len(reading.dice)), key=lambda i: (float(reading.dice[i].center[0]),
                                                             float(reading.dice[i].center[1])))
    seen = [reading.dice[i] for i in where]
    need = len(which)
    if len(seen) != need:
        what = "no die" if not seen else f"{len(seen)} di{'e' if len(seen) == 1 else 'ce'}"
        return RolledReading((None,) * need, (True,) * need,
                             f"the camera sees {what}; this roll has {need}")
    names = [face_name(d.face) for d in seen]
    confident = [float(d.confidence) >= min_confidence and n is not None
                 for d, n in zip(seen, names, strict=True)]
    best: tuple[int, ...] | None = None
    best_score = -1
    orders = [tuple(range(need))] if need == 1 else [(0, 1), (1, 0)]
    for order in orders:  # order[k]: index of the seen die standing for which[k]
        score = sum(2 if names[i] in dice[which[k]] else 0 for k, i in enumerate(order))
        if score > best_score:
            best, best_score = order, score
    assert best is not None
    faces: list[str | None] = []
    flags: list[bool] = []
    for k, i in enumerate(best):
        fits = names[i] in dice[which[k]]
        faces.append(names[i] if fits else None)
        flags.append(not (fits and confident[i]))
    problem = "" if all(f is not None for f in faces) else "a face no die of this player has"
    return RolledReading(tuple(faces), tuple(flags), problem, tuple(where[i] for i in best))


def rolled_call(player: str, faces: Sequence[str], die: int | None = None) -> Rolled:
    """The engine's call: two faces for a divine blessing, one face and its die (1 or 2)
    else."""
    if die is not None:
        if len(faces) != 1:
            raise ValueError(f"a minor blessing names one face, got {list(faces)!r}")
        return Rolled(player, (faces[0],), die)
    if len(faces) != 2:
        raise ValueError(f"a divine blessing names two faces, got {list(faces)!r}")
    return Rolled(player, (faces[0], faces[1]))


def call_from_reading(player: str, reading: Reading, dice: Sequence[Sequence[str]],
                      which: Sequence[int] = (0, 1),
                      min_confidence: float = MIN_CONFIDENCE
                      ) -> tuple[Rolled | None, RolledReading]:
    """The call when the reading is certain (else None) and the reading itself, so the
    screen can preselect what was seen and ask the players to confirm the rest."""
    got = read_roll(reading, dice, which, min_confidence)
    if not got.certain:
        return None, got
    faces = [f for f in got.faces if f is not None]
    die = which[0] + 1 if len(which) == 1 else None
    return rolled_call(player, faces, die), got
