"""Eye for an Eye calls: frozen dataclasses that render to, and parse from, what players say.

The canonical words use each character's short name ("Grubic: Spear Thrust 3 on Riparian");
the parser also takes player names, tribes ("on Hydris"), full names ("Chief Riparian") and the
generic action words (Move, Attack, Defend, Heal, Innate).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Call


@dataclass(frozen=True)
class Act(Call):
    """Resolve an action or a readied tribal card: movement, attack, heal, parry, innate, card."""

    actor: str
    key: str  # "movement", "attack", "heal", "defence", "innate" or "card:<name>"
    name: str  # the action's name on this character's board
    count: int | None = None
    target: str | None = None
    rear: bool = False

    def text(self) -> str:
        out = f"{self.actor}: {self.name}"
        if self.count is not None:
            out += f" {self.count}"
        if self.target is not None:
            out += f" on {self.target}"
        if self.rear:
            out += " from the rear"
        return out


@dataclass(frozen=True)
class Unblockable(Call):
    """Unblockable hits (from a tribal card): they skip the parry window."""

    actor: str
    count: int
    target: str

    def text(self) -> str:
        return f"{self.actor}: Unblockable {self.count} on {self.target}"


@dataclass(frozen=True)
class Ready(Call):
    """Ready a tribal card: "Readying Leap!" at the table."""

    actor: str
    card: str

    def text(self) -> str:
        return f"{self.actor}: Ready {self.card}"


@dataclass(frozen=True)
class Allocate(Call):
    """Place dice on an action or card (only when the table tracks allocation)."""

    actor: str
    count: int
    key: str
    name: str

    def text(self) -> str:
        return f"{self.actor}: Allocate {self.count} to {self.name}"


@dataclass(frozen=True)
class Recover(Call):
    """Take allocated dice back to the pool without spending them: all, or N from one action."""

    actor: str
    count: int | None = None
    key: str | None = None
    name: str | None = None

    def text(self) -> str:
        if self.count is None:
            return f"{self.actor}: Recover all"
        return f"{self.actor}: Recover {self.count} from {self.name}"


@dataclass(frozen=True)
class Land(Call):
    """A parry window closed: the oldest attack waiting on the target lands (or the oldest of
    ``attacker``'s, when named: "Hits land on Riparian from Banksia")."""

    target: str
    attacker: str | None = None

    def text(self) -> str:
        by = f" from {self.attacker}" if self.attacker is not None else ""
        return f"Hits land on {self.target}{by}"


@dataclass(frozen=True)
class Dispute(Call):
    """Players cannot agree: everyone involved clears all their dice."""

    involved: tuple[str, ...]

    def text(self) -> str:
        return "Dispute: " + ", ".join(self.involved)


@dataclass(frozen=True)
class StartingAreas(Call):
    """The Ceremonial Flower Tokens the table dealt: each character's starting area (1-6)."""

    areas: tuple[tuple[str, int], ...]  # (character short name, area), in seat order

    def text(self) -> str:
        return "Starting areas: " + ", ".join(f"{who} {area}" for who, area in self.areas)


@dataclass(frozen=True)
class TimeUp(Call):
    """The soundtrack ended: "Yarra Bung!" ends the round."""

    def text(self) -> str:
        return "Yarra Bung!"


@dataclass(frozen=True)
class NextRound(Call):
    """Begin the next round (or the tie-break round) after a round has ended."""

    def text(self) -> str:
        return "Next round"
