"""The calls of Dice Forge: frozen dataclasses rendering to the words said at the table.

Every call starts with the caller's name and a colon:

* ``Ana: Rolled 1 gold, 2 glory``            a divine blessing: the two faces that came up,
                                             in the order they are applied
* ``Ana: Rolled 1 gold on die 2``            a minor blessing with die 2
* ``Ana: Rolled celestial 12 gold``          the Celestial die
* ``Ana: Choose 2 glory``                    one of the options the game is waiting for
* ``Ana: Forge 3 gold on die 1 over 1 gold; 1 moon on die 2 over 1 gold``
* ``Ana: Perform The Chaos`` / ``Ana: Perform Hydra paying 2 ancient``
* ``Ana: Use The Elder``                     a reinforcement card, before the action
* ``Ana: Pass``                              no action this turn
* ``Ana: Extra action`` / ``Ana: Extra action paying 1 ancient``   pay 2 sun for a 2nd action
* ``Ana: End turn``
* ``Ana: Hammer all`` / ``Ana: Scepter overflow``  where an owner's gold goes (any time)
* ``Sanctuary removed: 6 gold, 1 glory + 1 sun, 4 glory, 2 glory + 2 moon``  2 players: the
                                             faces the table removed from the mixed pools

Words are read in any case, with number words (one..twenty) for numbers; "NAME:" may be left
out when only one player can make the call (see :meth:`DiceForge.parse`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Call, InvalidCall, read_number, shown
from rules.dice_forge import data as D


@dataclass(frozen=True)
class Rolled(Call):
    """Faces that came up: two for a divine blessing, one (with its die) for a minor one."""

    player: str
    faces: tuple[str, ...]
    die: int | None = None
    celestial: bool = False

    def text(self) -> str:
        if self.celestial:
            return f"{self.player}: Rolled celestial {self.faces[0]}"
        if self.die is not None:
            return f"{self.player}: Rolled {self.faces[0]} on die {self.die}"
        return f"{self.player}: Rolled {', '.join(self.faces)}"


@dataclass(frozen=True)
class Choose(Call):
    """One of the options the game waits for (a choice face, a fork, a free forge...)."""

    player: str
    option: str

    def text(self) -> str:
        return f"{self.player}: Choose {self.option}"


@dataclass(frozen=True)
class Buy:
    """One face bought in a forge: the new face, the die (1 or 2) and the face it replaces."""

    face: str
    die: int
    over: str

    def text(self) -> str:
        return f"{self.face} on die {self.die} over {self.over}"

    @classmethod
    def from_text(cls, text: str) -> Buy:
        """Read ``"3 gold on die 1 over 1 gold"`` (any case). Raises :class:`InvalidCall`."""
        low = " ".join(text.split()).casefold()
        new, sep, rest = low.partition(" on die ")
        die, sep2, over = rest.partition(" over ")
        if not sep or not sep2 or die not in ("1", "2"):
            raise InvalidCall(f"{shown(text)}: expected 'FACE on die 1|2 over FACE'")
        for face in (new, over):
            if not D.is_face(face):
                raise InvalidCall(f"{shown(text)}: {shown(face)} is no die face")
        return cls(new, int(die), over)


@dataclass(frozen=True)
class Forge(Call):
    """Buy faces from the Sanctuary and forge them (the forge action)."""

    player: str
    buys: tuple[Buy, ...]

    def text(self) -> str:
        return f"{self.player}: Forge {'; '.join(b.text() for b in self.buys)}"


@dataclass(frozen=True)
class Perform(Call):
    """Perform a heroic feat: take the top card of the named stack."""

    player: str
    card: str
    ancient: int = 0

    def text(self) -> str:
        paying = f" paying {self.ancient} ancient" if self.ancient else ""
        return f"{self.player}: Perform {self.card}{paying}"


@dataclass(frozen=True)
class Use(Call):
    """Use a reinforcement card (once per own turn, before the action)."""

    player: str
    card: str

    def text(self) -> str:
        return f"{self.player}: Use {self.card}"


@dataclass(frozen=True)
class Pass(Call):
    """Take no action this turn."""

    player: str

    def text(self) -> str:
        return f"{self.player}: Pass"


@dataclass(frozen=True)
class ExtraAction(Call):
    """Pay 2 sun shards (ancient shards may stand in) for a second action."""

    player: str
    ancient: int = 0

    def text(self) -> str:
        paying = f" paying {self.ancient} ancient" if self.ancient else ""
        return f"{self.player}: Extra action{paying}"


@dataclass(frozen=True)
class GoldTo(Call):
    """Where a Hammer or Scepter owner's gold goes from now on: ``all`` to that store while it
    has room, or only the ``overflow`` beyond the reserve's cap (the default). Said any time."""

    player: str
    store: str
    mode: str

    def text(self) -> str:
        return f"{self.player}: {self.store} {self.mode}"


@dataclass(frozen=True)
class SanctuaryRemoved(Call):
    """2 players: the faces the table removed from the Sanctuary's pools of different faces
    (2 from each; pools of four identical faces need no saying)."""

    faces: tuple[str, ...]

    def text(self) -> str:
        return "Sanctuary removed: " + ", ".join(self.faces)


@dataclass(frozen=True)
class EndTurn(Call):
    """End the active player's turn."""

    player: str

    def text(self) -> str:
        return f"{self.player}: End turn"


def _paying(rest: str, text: str) -> tuple[str, int]:
    """Split ``"X paying 2 ancient"`` into ``("X", 2)``."""
    at = rest.casefold().find(" paying ")
    if at < 0:
        return rest, 0
    head, tail = rest[:at], rest[at + len(" paying "):]
    words = tail.split()
    n = read_number(words[0]) if len(words) == 2 else None
    if len(words) != 2 or words[1].casefold() != "ancient" or n is None or not 1 <= n <= 6:
        raise InvalidCall(f"{text!r}: expected 'paying N ancient' with N of 1 to 6")
    return head, n


def _face(word: str, text: str) -> str:
    face = word.strip()
    if not D.is_face(face):
        raise InvalidCall(f"{text!r}: {shown(face)} is no die face")
    return face


def parse_call(text: str, players: tuple[str, ...]) -> Call:
    """Read a call of Dice Forge (tidied: see :func:`rules.core.tidy_call`). Raises
    :class:`InvalidCall` for words that are no call."""
    who, colon, rest = text.partition(":")
    who, rest = who.strip(), " ".join(rest.split())
    if who.casefold() in ("sanctuary removed", "removed") and colon:
        faces = tuple(_face(f, text) for f in rest.casefold().split(",") if f.strip())
        if not faces:
            raise InvalidCall(f"{text!r}: name the faces removed, e.g. 'Sanctuary removed: "
                              "6 gold, 2 gold + 1 moon, 4 glory, 3 glory'")
        return SanctuaryRemoved(faces)
    if not colon or not rest:
        raise InvalidCall(f"{text!r}: expected 'NAME: what happened'")
    named = next((p for p in players if p.casefold() == who.casefold()), None)
    if named is None:
        raise InvalidCall(f"{text!r}: no player called {shown(who)} (players: "
                          f"{', '.join(players)})")
    who = named
    low = rest.casefold()
    verb, _, arg = low.partition(" ")
    if low == "pass":
        return Pass(who)
    if low == "end turn":
        return EndTurn(who)
    if low.startswith("extra action"):
        tail = low[len("extra action"):]
        if not tail:
            return ExtraAction(who)
        if not tail.startswith(" paying "):
            raise InvalidCall(f"{text!r}: expected 'Extra action' or 'Extra action paying N "
                              "ancient'")
        return ExtraAction(who, _paying(tail, text)[1])
    if verb in ("rolled", "roll") and arg:
        if arg.startswith("celestial "):
            face = arg[len("celestial "):]
            if face not in D.CELESTIAL_FACES:
                raise InvalidCall(f"{text!r}: {shown(face)} is no Celestial die face; faces: "
                                  + ", ".join(D.CELESTIAL_FACES))
            return Rolled(who, (face,), celestial=True)
        face, sep, die = arg.rpartition(" on die ")
        if sep:
            if die not in ("1", "2") or not D.is_face(face):
                raise InvalidCall(f"{text!r}: expected 'Rolled FACE on die 1|2'")
            return Rolled(who, (face,), int(die))
        faces = tuple(f.strip() for f in arg.split(","))
        if len(faces) != 2:
            raise InvalidCall(f"{text!r}: a divine blessing names two faces, "
                              "'Rolled FACE, FACE'; a minor one 'Rolled FACE on die N'")
        return Rolled(who, tuple(_face(f, text) for f in faces))
    raw_arg = rest.partition(" ")[2]
    if verb == "choose" and arg:
        return Choose(who, raw_arg)
    if verb == "forge" and arg:
        return Forge(who, tuple(Buy.from_text(b.strip()) for b in arg.split(";")))
    if verb == "perform" and arg:
        card, ancient = _paying(raw_arg, text)
        return Perform(who, card, ancient)
    if verb in ("hammer", "scepter") and arg in ("all", "overflow"):
        return GoldTo(who, verb.capitalize(), arg)
    if verb == "use" and arg:
        return Use(who, raw_arg)
    raise InvalidCall(f"{text!r}: expected Rolled, Choose, Forge, Perform, Use, Pass, "
                      "Extra action, End turn, Hammer or Scepter all|overflow")
