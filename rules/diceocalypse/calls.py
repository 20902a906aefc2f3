"""The calls of Dice-ocalypse: what players say at the table, as frozen dataclasses.

Every call starts with the speaker's name: ``Ana: Roll 1 5 5 3 2 6``, ``Ana: Keep 1 5 5``,
``Ana: Bank``, ``Ben: Play Prove It on Ana``, ``Ana: Immunity``, ``Cy: Zombie 2``,
``Cy: Left Behind 4``, ``Dee: Pick Ben`` (the table settles a simultaneous play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.core import Call, InvalidCall, read_number, shown

PROVE_IT = "Prove It"
DOUBLE_OR_NOTHING = "Double or Nothing"
DO_OR_DIE = "Do or Die"
BLOODSHED = "Bloodshed"
COLLATERAL_DAMAGE = "Collateral Damage"
CARDS = (PROVE_IT, DOUBLE_OR_NOTHING, DO_OR_DIE, BLOODSHED, COLLATERAL_DAMAGE)
#: Cards played on an opponent: they name the opponent.
TARGETED = (PROVE_IT, DO_OR_DIE, COLLATERAL_DAMAGE)

SpecialDie = Literal["Zombie", "Left Behind"]


def _dice_text(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


@dataclass(frozen=True)
class Roll(Call):
    """Dice rolled: the game dice of a turn, one die for a roll-off, two in a Battle Zone..."""

    player: str
    values: tuple[int, ...]

    def text(self) -> str:
        return f"{self.player}: Roll {_dice_text(self.values)}"


@dataclass(frozen=True)
class Keep(Call):
    """Scoring dice set aside from the last roll."""

    player: str
    values: tuple[int, ...]

    def text(self) -> str:
        return f"{self.player}: Keep {_dice_text(self.values)}"


@dataclass(frozen=True)
class Bank(Call):
    """End the turn and add its points to the player's score."""

    player: str

    def text(self) -> str:
        return f"{self.player}: Bank"


@dataclass(frozen=True)
class PlayCard(Call):
    """An Act of War card; ``together`` marks a play made at the same moment as the one before."""

    player: str
    card: str
    target: str | None = None
    together: bool = False

    def text(self) -> str:
        on = f" on {self.target}" if self.target else ""
        return f"{self.player}: Play {self.card}{on}{' together' if self.together else ''}"


@dataclass(frozen=True)
class Immunity(Call):
    """The Immunity card, against the Act of War card played on the speaker."""

    player: str

    def text(self) -> str:
        return f"{self.player}: Immunity"


@dataclass(frozen=True)
class Pick(Call):
    """The players without a card in a simultaneous play decide whose card came first."""

    player: str
    chosen: str

    def text(self) -> str:
        return f"{self.player}: Pick {self.chosen}"


@dataclass(frozen=True)
class SpecialRoll(Call):
    """The Zombie die or the Left Behind die, rolled before a turn by the player holding it."""

    player: str
    die: SpecialDie
    value: int

    def text(self) -> str:
        return f"{self.player}: {self.die} {self.value}"


DiceCall = Roll | Keep | Bank | PlayCard | Immunity | Pick | SpecialRoll


def _dice(text: str, words: list[str], least: int, most: int) -> tuple[int, ...]:
    values = [read_number(w) for w in words]
    if not least <= len(words) <= most or not all(v is not None and 1 <= v <= 6
                                                  for v in values):
        raise InvalidCall(f"{text!r}: expected {least} to {most} dice, each a number 1 to 6")
    return tuple(v for v in values if v is not None)


def _player(name: str, players: Sequence[str]) -> str | None:
    """The player called ``name``, in any case; None if nobody is."""
    return next((p for p in players if p.casefold() == name.strip().casefold()), None)


def parse_call(text: str, players: Sequence[str]) -> DiceCall:
    """Read one call (names in any case, dice in digits or words); raises
    :class:`InvalidCall` naming the words that are no call."""
    said, sep, rest = text.partition(":")
    if not sep:
        raise InvalidCall(f"{text!r}: expected 'NAME: call', e.g. 'Ana: Roll 1 5 5 3 2 6'")
    who = _player(said, players)
    if who is None:
        raise InvalidCall(f"{text!r}: no player called {shown(said.strip())}; players: "
                          f"{', '.join(players)}")
    words = rest.split()
    if not words:
        raise InvalidCall(f"{text!r}: nothing called after {who!r}")
    head, args = words[0].casefold(), words[1:]
    if head == "roll":
        return Roll(who, _dice(text, args, 1, 6))
    if head == "keep":
        return Keep(who, _dice(text, args, 1, 6))
    if head == "bank" and not args:
        return Bank(who)
    if head == "immunity" and not args:
        return Immunity(who)
    if head == "pick" and args:
        chosen = _player(" ".join(args), players)
        if chosen is None:
            raise InvalidCall(f"{text!r}: no player called {shown(' '.join(args))} to pick")
        return Pick(who, chosen)
    special: SpecialDie | None = None
    if head == "zombie" and len(args) == 1:
        special = "Zombie"
    elif head == "left" and len(args) == 2 and args[0].casefold() == "behind":
        special = "Left Behind"
    if special is not None:
        return SpecialRoll(who, special, _dice(text, args[-1:], 1, 1)[0])
    if head == "play" and args:
        body = " ".join(args)
        together = body.casefold().endswith(" together")
        if together:
            body = body[: -len(" together")]
        at = body.casefold().rfind(" on ")
        on = at >= 0
        name, target = (body[:at], body[at + 4:]) if on else (body, "")
        card = next((c for c in CARDS if c.casefold() == name.strip().casefold()), None)
        if card is None:
            raise InvalidCall(f"{text!r}: no Act of War card called {name.strip()!r}; cards: "
                              + ", ".join(CARDS))
        if card in TARGETED:
            named = _player(target, players) if on else None
            if named is None:
                raise InvalidCall(f"{text!r}: {card} needs 'on NAME' naming a player")
            return PlayCard(who, card, named, together)
        if on:
            raise InvalidCall(f"{text!r}: {card} is not played on another player")
        return PlayCard(who, card, None, together)
    raise InvalidCall(f"{text!r}: not a Dice-ocalypse call (Roll, Keep, Bank, Play CARD, "
                      "Immunity, Pick, Zombie, Left Behind)")
