"""``companion history --forget PLAYER``: take a player out of every game kept on this Pi.

The other players' games stay (their scores, wins and statistics do not change): the forgotten
player's seat is renamed to a neutral name ("Forgotten", "Forgotten 2" if taken) in the setup,
in every call that names them and in the title, and is counted in nobody's statistics. Calls
are rewritten through the rules engine: each call is parsed by the game, the fields holding the
name are changed, and the call is said again in the game's own words; the rewritten game must
replay to the same results, or the game is removed whole rather than kept with the name in it.
Games still being played are left alone (the app may be writing them): finish or abandon them,
then forget again. Afterwards the database is vacuumed, so no old copy of the name stays in its
free pages or its write-ahead log.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from companion.history.index import History
from companion.history.summary import player_key

PSEUDONYM = "Forgotten"


@dataclass
class ForgetReport:
    """What forgetting did: games rewritten, games removed (could not be rewritten), games
    left alone because they are unfinished, and whether the database was compacted."""

    name: str
    rewritten: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    unfinished: list[int] = field(default_factory=list)
    vacuumed: bool = False
    problems: list[str] = field(default_factory=list)

    def text(self) -> str:
        if not (self.rewritten or self.removed or self.unfinished):
            return f"{self.name}: in no game of this history"
        parts = [f"{self.name} forgotten in {len(self.rewritten)} game(s)"]
        if self.removed:
            parts.append(f"{len(self.removed)} game(s) that could not be rewritten were "
                         f"removed: {', '.join(map(str, self.removed))}")
        if self.unfinished:
            parts.append(f"still in {len(self.unfinished)} unfinished game(s) "
                         f"({', '.join(map(str, self.unfinished))}): finish or abandon them "
                         "in the app, then forget again")
        if not self.vacuumed and (self.rewritten or self.removed):
            parts.append("the database could not be compacted now (in use?): old copies of "
                         "the name stay in its free pages until the next "
                         "'companion history --forget'")
        return "; ".join(parts)


def _swap(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` replaced, inside tuples, lists and dicts."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, tuple):
        return tuple(_swap(v, old, new) for v in value)
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_swap(k, old, new): _swap(v, old, new) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _rename_fields(value, old, new, None)
    return value


def _rename_fields(call: Any, old: str, new: str, only: frozenset[str] | None) -> Any:
    changes = {}
    for f in dataclasses.fields(call):
        if only is not None and f.name not in only:
            continue
        value = getattr(call, f.name)
        swapped = _swap(value, old, new)
        if swapped != value:
            changes[f.name] = swapped
    return dataclasses.replace(call, **changes) if changes else call


def _naming_fields(call: Any, old: str) -> list[str]:
    return [f.name for f in dataclasses.fields(call)
            if _swap(getattr(call, f.name), old, "\0") != getattr(call, f.name)]


def _rewrite(setup: Any, entries: list[Any], old: str, new: str) -> tuple[Any, list[str]]:
    """The setup and calls with ``old`` renamed ``new``, said again by the game; raises
    :class:`rules.RulesError` or ValueError when that is not possible.

    An option holding the name (Eye for an Eye's teams) is renamed too, unless the game then
    refuses the setup or a call (an Occulites Tribe called like the player): then fewer options
    are renamed.
    """
    import rules

    naming = [k for k, v in setup.options.items() if _swap(v, old, "\0") != v]
    problem: Exception | None = None
    for size in range(len(naming), -1, -1):
        for keys in itertools.combinations(naming, size):
            options = {k: _swap(v, old, new) if k in keys else v
                       for k, v in setup.options.items()}
            new_setup = rules.Setup(setup.game,
                                    tuple(new if p == old else p for p in setup.players),
                                    options, setup.seed)
            try:
                return new_setup, _rewrite_calls(setup, new_setup, entries, old, new)
            except (rules.RulesError, ValueError) as e:
                problem = e
    assert problem is not None
    raise problem


def _rewrite_calls(setup: Any, new_setup: Any, entries: list[Any], old: str,
                   new: str) -> list[str]:
    import rules

    before = rules.from_setup(setup)
    after = rules.from_setup(new_setup)
    texts = []
    for entry in entries:
        call = before.parse(entry.call)
        names = _naming_fields(call, old)
        done = None
        # Rename every field naming the player; if the game refuses that (a tribe with the
        # player's name, say), try fewer fields.
        for size in range(len(names), -1, -1):
            for subset in itertools.combinations(names, size):
                renamed = _rename_fields(call, old, new, frozenset(subset))
                text = renamed.text()
                if after.is_legal(text, entry.at):
                    done = text
                    break
            if done is not None:
                break
        if done is None:
            raise ValueError(f"call {entry.call!r} cannot be said without the name")
        before.apply(call, entry.at)
        after.apply(done, entry.at)
        texts.append(done)
    mapped = [dataclasses.replace(r, player=new if r.player == old else r.player)
              for r in before.results()]
    if list(after.results()) != mapped:
        raise ValueError("the rewritten game does not end the same")
    return texts


def forget_player(history: History, name: str) -> ForgetReport:
    """Take ``name`` (any case) out of every finished game in the history; see the module."""
    import rules

    key = player_key(name)
    report = ForgetReport(name)
    history.refresh()
    ids = history.games_of(key)
    history.secure_delete()
    for gid in ids:
        stored = history.stored_game(gid)
        if stored is None:
            continue
        setup_raw, title, finished, calls = stored
        if not finished:
            report.unfinished.append(gid)
            continue
        raw = json.loads(setup_raw)
        old = next((p for p in raw.get("players", []) if player_key(p) == key), None)
        if old is None:
            continue
        taken = {player_key(p) for p in raw["players"]}
        names = (PSEUDONYM if i == 1 else f"{PSEUDONYM} {i}" for i in itertools.count(1))
        pseudonym = next(n for n in names if player_key(n) not in taken)
        new_title = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", pseudonym, str(title))
        try:
            setup = rules.Setup.from_json(raw)
            new_setup, texts = _rewrite(setup, [rules.Entry(c, a) for _, c, a, _ in calls],
                                        old, pseudonym)
            new_raw = json.dumps(new_setup.to_json())
        except (rules.RulesError, ValueError, TypeError) as e:
            report.problems.append(f"game {gid}: {e}")
            history.remove_game(gid)
            report.removed.append(gid)
            continue
        history.rewrite_game(gid, new_raw, new_title,
                             [(seq, t) for t, (seq, _c, _a, _u) in zip(texts, calls,
                                                                       strict=True)], pseudonym)
        report.rewritten.append(gid)
    if report.rewritten or report.removed:
        report.vacuumed = history.compact()
    return report
