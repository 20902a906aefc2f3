"""Eye for an Eye said aloud: the phrases players say at the table, and whose each call is.

The rulebook's calls: "Call out the exact name of the action along with the number of dice"
("Spear Thrust 3 on Hydris", "Movement Two"), "the name of your basic Defence and the number of
dice" ("Parry 2"), "Readying Leap!" and "Leap!". So each character's actions and tribal cards
by their printed names, with a count where the action takes one (1 to its spaces), a target
by character, tribe, figure or player name ("on Hydris", "on Guard 2") and "from the rear";
"Unblockable N on X"; and the table's "undo" and "Yarra Mark". Phrases whose calls are legal now
(the rules' own :meth:`~rules.eye_for_an_eye.EyeForAnEye.legal_calls`) are weighted up.

Whose call it is follows from the call: an action's owner, the attacked player for a parry
(the rules take "Parry 2" from whoever has an attack waiting); a phrase several players could
say ("Attack 2 on Grubic", where Riparian and Banksia both have Attack) is asked with one tap
when more than one of them may say it now. (A phrase said after the caller's own name, "Grubic
spear thrust three", doubled the phrases and the table talk heard as calls: benchmarks/voice.py.)
"""

from __future__ import annotations

import functools

from companion.voice.phrases import (
    Phrase,
    Vocabulary,
    count_words,
    merge,
    spoken,
    table_phrases,
)
from rules import Call
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.calls import Act, Ready, Unblockable
from rules.eye_for_an_eye.characters import Action, Character


def _per_die(action: Action) -> bool:
    """Whether the action takes a count (as the rules decide)."""
    effect = action.effect
    return effect.per_die > 0 or (effect.kind in ("move", "unknown") and action.spaces > 1)


def _said(action: str, count: int | None, target: str | None, rear: bool) -> str:
    out = action
    if count is not None:
        out += f" {count}"
    if target is not None:
        out += f" on {target}"
    if rear:
        out += " from the rear"
    return out


class EyeVoice:
    """The phrases of one Eye for an Eye match (a :class:`~companion.voice.phrases.GameVoice`)."""

    def __init__(self, game: EyeForAnEye) -> None:
        self.game = game

    @functools.cached_property
    def _all(self) -> tuple[tuple[tuple[str, ...], str, Call], ...]:
        """Every phrase of the seated characters, whether legal now or not (once per match:
        the characters and their cards do not change)."""
        game = self.game
        seats = game.seats()
        targets: list[tuple[tuple[str, ...], str, int]] = []  # (words, figure, seat)
        for j, s in enumerate(seats):
            c = s.character
            names = {c.short, c.tribe, s.player} if len(c.figures) == 1 else {s.player}
            for name in names:
                targets.append((spoken(name), c.figures[0].name, j))
            for f in c.figures:
                targets.append((spoken(f.name), f.name, j))
        out: list[tuple[tuple[str, ...], str, Call]] = []
        for i, s in enumerate(seats):
            c = s.character
            others = [t for t in targets if t[2] != i]
            out.extend(self._of(c, c.short, others))
        return tuple(out)

    def _of(self, c: Character, me: str, targets: list[tuple[tuple[str, ...], str, int]]
            ) -> list[tuple[tuple[str, ...], str, Call]]:
        out: list[tuple[tuple[str, ...], str, Call]] = []
        advanced = self.game.options.advanced
        actions: list[tuple[str, Action]] = list(c.actions.items())
        if advanced:
            actions += [(f"card:{k.name}", k.action) for k in c.cards]
        for key, action in actions:
            if action.spaces == 0 or (key == "innate" and not advanced):
                continue
            name = spoken(action.name)
            counts: list[int | None] = (list(range(1, action.spaces + 1))
                                        if _per_die(action) else [None])
            for n in counts:
                said_n = name + ((count_words(n),) if n is not None else ())
                if action.effect.kind == "hits":
                    for words, figure, _ in targets:
                        for rear in (False, True):
                            tail = ("from", "the", "rear") if rear else ()
                            out.append(((*said_n, "on", *words, *tail),
                                        _said(action.name, n, figure, rear),
                                        Act(me, key, action.name, n, figure, rear)))
                else:
                    out.append((said_n, _said(action.name, n, None, False),
                                Act(me, key, action.name, n)))
        if advanced:
            for card in c.cards:
                for ready in (("ready",), ("readying",)):
                    out.append((ready + spoken(card.name), f"Ready {card.name}",
                                Ready(me, card.name)))
            for n in range(1, 7):
                for words, figure, _ in targets:
                    out.append((("unblockable", count_words(n), "on", *words),
                                f"Unblockable {n} on {figure}", Unblockable(me, n, figure)))
        return out

    def vocabulary(self) -> Vocabulary:
        """The phrases now: each weighted up when one of its calls is legal."""
        game = self.game
        legal = set(game.legal_calls()) if not game.is_over else set()
        # The rules do not list unblockable hits: they are legal where an attack on the
        # same figure by the same character is.
        attacks = {(c.actor, c.target) for c in legal
                   if isinstance(c, Act) and c.target is not None and not c.rear}
        def is_legal(call: Call) -> bool:
            if isinstance(call, Unblockable):
                return (call.actor, call.target) in attacks
            return call in legal
        phrases = merge((w, said, call, is_legal(call)) for w, said, call in self._all)
        version = hash(frozenset(legal))
        return Vocabulary(game.name, tuple(phrases) + table_phrases(), version)

    def speaker(self, call: Call) -> str:
        """The player who makes ``call``: the actor's player (for a parry, the actor is the
        attacked character, so the attacked player)."""
        actor = getattr(call, "actor", None)
        for s in self.game.seats():
            if actor in (s.character.short, s.player):
                return s.player
        return ""


def make_voice(game: object) -> EyeVoice:
    """The plugin's voice maker."""
    if not isinstance(game, EyeForAnEye):
        raise TypeError(f"Eye for an Eye's voice needs its game, not {type(game).__name__}")
    return EyeVoice(game)


def phrase_count(game: EyeForAnEye) -> int:
    """How many phrases the match listens for (benchmarks and docs)."""
    return len(EyeVoice(game).vocabulary().phrases)


__all__ = ["EyeVoice", "Phrase", "make_voice", "phrase_count"]
