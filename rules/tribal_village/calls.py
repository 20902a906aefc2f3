"""Tribal Village calls: what players say at the table, as frozen dataclasses, and their parser.

::

    Alliances: Palaudis+Hydris, Ignis+Boletus, Luftles
    Objectives: Secret Village, Crowded Village, Twin Village, Quiet Village, Humble Village
    Ana: Objective Secret Village          (pick, or change after a Lucky Gretin)
    Ana: Keep objective                    (after a Lucky Gretin, no change)
    Ana: Lowest Luftles 2                  (first lead: lowest unallied card; or "Ana: Leads first")
    Ana: Palaudis 7                        (play a card)
    Ana: Palaudis 7 +1                     (... with Wild Luftle tokens: +N or -N)
    Ana: Hydris 5 net Ben                  (... placing the Hunting Net)
    Ana: Nimbus 3 take Floris 2 discard Ignis 5
    Ana: Boletus 4 swap Ignis Hydris
    Ben: Retrieve net / Ben: Leave net
    Ana: Chaos Ignis 3 from Ben, Hydris 2 from Cy / Ana: No chaos
    Ana: Return Ignis 3 to Ben, Floris 1 to Cy
    Ana: Manipulate Ignis 3 from Ben / Ana: No manipulation
    Ben: Discard Floris 2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.core import Call, InvalidCall, read_number, shown
from rules.tribal_village.cards import LUFTLE_TOKENS, format_layout, parse_card, parse_layout
from rules.tribal_village.objectives import OBJECTIVES

__all__ = [
    "Chaos",
    "ChaosReturn",
    "Discard",
    "FirstLead",
    "KeepObjective",
    "Manipulate",
    "NetAnswer",
    "PickObjective",
    "Play",
    "Reveal",
    "SetAlliances",
    "parse_call",
]


@dataclass(frozen=True)
class SetAlliances(Call):
    """Lay out the Tribal Alliance cards for this hand (before its first lead)."""

    layout: tuple[tuple[str, ...], ...]

    def text(self) -> str:
        return f"Alliances: {format_layout(self.layout)}"


@dataclass(frozen=True)
class Reveal(Call):
    """Name the objective cards dealt face up for this hand (before its first lead)."""

    objectives: tuple[str, ...]

    def text(self) -> str:
        return "Objectives: " + ", ".join(self.objectives)


@dataclass(frozen=True)
class PickObjective(Call):
    """Place a Player Token on a revealed objective (or move it after a Lucky Gretin)."""

    player: str
    objective: str

    def text(self) -> str:
        return f"{self.player}: Objective {self.objective}"


@dataclass(frozen=True)
class KeepObjective(Call):
    """After a Lucky Gretin enters the Village: keep the chosen objective."""

    player: str

    def text(self) -> str:
        return f"{self.player}: Keep objective"


@dataclass(frozen=True)
class FirstLead(Call):
    """Who leads the hand's first trick: the holder of the lowest unallied card (shown)."""

    player: str
    card: str | None = None

    def text(self) -> str:
        if self.card is None:
            return f"{self.player}: Leads first"
        return f"{self.player}: Lowest {self.card}"


@dataclass(frozen=True)
class Play(Call):
    """Play a card, with Wild Luftle tokens (+N / -N) and the ability's choices if any."""

    player: str
    card: str
    tokens: int = 0
    net: str | None = None
    take: str | None = None
    discard: str | None = None
    swap: tuple[str, str] | None = None

    def text(self) -> str:
        words = [f"{self.player}: {self.card}"]
        if self.tokens:
            words.append(f"{self.tokens:+d}")
        if self.net is not None:
            words.append(f"net {self.net}")
        if self.take is not None:
            words.append(f"take {self.take}")
        if self.discard is not None:
            words.append(f"discard {self.discard}")
        if self.swap is not None:
            words.append(f"swap {self.swap[0]} {self.swap[1]}")
        return " ".join(words)


@dataclass(frozen=True)
class NetAnswer(Call):
    """A Hunting Net's owner retrieves it (forcing a different card) or leaves it."""

    player: str
    retrieve: bool

    def text(self) -> str:
        return f"{self.player}: {'Retrieve' if self.retrieve else 'Leave'} net"


@dataclass(frozen=True)
class Chaos(Call):
    """Floris won: the random card each other player adds (empty: the winner declines)."""

    player: str
    added: tuple[tuple[str, str], ...] = ()  # (card, from player)

    def text(self) -> str:
        if not self.added:
            return f"{self.player}: No chaos"
        return f"{self.player}: Chaos " + ", ".join(f"{c} from {p}" for c, p in self.added)


@dataclass(frozen=True)
class ChaosReturn(Call):
    """Floris: the winner gives one card of the group back to each player who added one."""

    player: str
    gifts: tuple[tuple[str, str], ...]  # (card, to player)

    def text(self) -> str:
        return f"{self.player}: Return " + ", ".join(f"{c} to {p}" for c, p in self.gifts)


@dataclass(frozen=True)
class Manipulate(Call):
    """Tachydus won: return a card from a Village to its owner's hand (None: decline)."""

    player: str
    card: str | None = None
    owner: str | None = None

    def text(self) -> str:
        if self.card is None:
            return f"{self.player}: No manipulation"
        return f"{self.player}: Manipulate {self.card} from {self.owner}"


@dataclass(frozen=True)
class Discard(Call):
    """After Tachydus returned a card to this player's hand: the different card they discard."""

    player: str
    card: str

    def text(self) -> str:
        return f"{self.player}: Discard {self.card}"


def _card(text: str, whole: str) -> str:
    card = parse_card(text)
    if card is None:
        raise InvalidCall(f"{whole!r}: {text.strip()!r} is no card; say a tribe and a value "
                          "(e.g. 'Palaudis 7') or 'Lucky Gretin'")
    return card


def _objective(text: str, whole: str) -> str:
    name = " ".join(text.split())
    for known in OBJECTIVES:
        if known.casefold() == name.casefold():
            return known
    raise InvalidCall(f"{whole!r}: no objective called {name!r}; objectives: "
                      + ", ".join(OBJECTIVES))


def _player(text: str, players: Sequence[str], whole: str) -> str:
    name = text.strip()
    for p in players:
        if p.casefold() == name.casefold():
            return p
    raise InvalidCall(f"{whole!r}: no player called {name!r}; players: {', '.join(players)}")


def _pairs(text: str, sep: str, players: Sequence[str], whole: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for part in text.split(","):
        part = part.strip()
        at = part.casefold().rfind(f" {sep} ")
        found = at >= 0
        card_text, name = (part[:at], part[at + len(sep) + 2:]) if found else (part, "")
        if not found:
            raise InvalidCall(f"{whole!r}: expected 'CARD {sep} PLAYER', got {part.strip()!r}")
        pairs.append((_card(card_text, whole), _player(name, players, whole)))
    return tuple(pairs)


def _play(who: str, words: list[str], players: Sequence[str], whole: str) -> Play:
    if len(words) >= 2 and parse_card(" ".join(words[:2])) is not None:
        card, rest = _card(" ".join(words[:2]), whole), words[2:]
    else:
        card, rest = _card(" ".join(words), whole), []
    tokens = 0
    net = take = discard = None
    swap = None
    if rest and rest[0][:1] in "+-":
        n = read_number(rest[0][1:])
        if n is None or not 1 <= n <= LUFTLE_TOKENS:
            raise InvalidCall(f"{whole!r}: Luftle tokens are +N or -N with N 1 to "
                              f"{LUFTLE_TOKENS}, not {shown(rest[0])}")
        tokens = n if rest[0][0] == "+" else -n
        rest = rest[1:]
    while rest:
        word = rest[0].casefold()
        if word == "net" and len(rest) >= 2 and net is None:
            # A name may hold spaces; 'net' is the last clause (only Hydris places a net).
            net, rest = _player(" ".join(rest[1:]), players, whole), []
        elif word == "take" and len(rest) >= 3 and take is None:
            take, rest = _card(" ".join(rest[1:3]), whole), rest[3:]
        elif word == "discard" and len(rest) >= 3 and discard is None:
            discard, rest = _card(" ".join(rest[1:3]), whole), rest[3:]
        elif word == "swap" and len(rest) >= 3 and swap is None:
            layout = parse_layout(f"{rest[1]}, {rest[2]}")
            if layout is None:
                raise InvalidCall(f"{whole!r}: 'swap' needs two tribes, got {rest[1]!r} and "
                                  f"{rest[2]!r}")
            swap, rest = (layout[0][0], layout[1][0]), rest[3:]
        else:
            raise InvalidCall(f"{whole!r}: did not understand {' '.join(rest)!r}; after the card "
                              "say +N/-N, 'net PLAYER', 'take CARD discard CARD' or "
                              "'swap TRIBE TRIBE'")
    return Play(who, card, tokens, net, take, discard, swap)


def parse_call(text: str, players: Sequence[str]) -> Call:
    """Read one Tribal Village call. Raises :class:`InvalidCall` naming what was not understood."""
    head, colon, rest = text.partition(":")
    if not colon or not rest.strip():
        raise InvalidCall(f"{text!r}: expected 'PLAYER: what they do', 'Alliances: ...' or "
                          "'Objectives: ...'")
    head = head.strip()
    rest = rest.strip()
    folded = [p.casefold() for p in players]
    if head.casefold() not in folded:
        if head.casefold() == "alliances":
            layout = parse_layout(rest)
            if layout is None:
                raise InvalidCall(f"{text!r}: alliances are tribes joined by '+' (allies) and "
                                  "separated by ',', e.g. 'Palaudis+Hydris, Luftles'")
            return SetAlliances(tuple(tuple(g) for g in layout))
        if head.casefold() == "objectives":
            return Reveal(tuple(_objective(name, text) for name in rest.split(",")))
        raise InvalidCall(f"{text!r}: no player called {head!r}; players: {', '.join(players)}")
    who = players[folded.index(head.casefold())]
    words = rest.split()
    first = words[0].casefold()
    low = rest.casefold()
    if first == "objective" and len(words) > 1:
        return PickObjective(who, _objective(" ".join(words[1:]), text))
    if low == "keep objective":
        return KeepObjective(who)
    if low == "leads first":
        return FirstLead(who)
    if first == "lowest":
        return FirstLead(who, _card(" ".join(words[1:]), text))
    if low in ("retrieve net", "leave net"):
        return NetAnswer(who, low == "retrieve net")
    if low == "no chaos":
        return Chaos(who)
    if first == "chaos" and len(words) > 1:
        return Chaos(who, _pairs(" ".join(words[1:]), "from", players, text))
    if first == "return" and len(words) > 1:
        return ChaosReturn(who, _pairs(" ".join(words[1:]), "to", players, text))
    if low == "no manipulation":
        return Manipulate(who)
    if first == "manipulate" and len(words) > 1:
        pairs = _pairs(" ".join(words[1:]), "from", players, text)
        if len(pairs) != 1:
            raise InvalidCall(f"{text!r}: Tachydus returns one card: 'Manipulate CARD from PLAYER'")
        return Manipulate(who, pairs[0][0], pairs[0][1])
    if first == "discard" and len(words) > 1:
        return Discard(who, _card(" ".join(words[1:]), text))
    return _play(who, words, players, text)
