"""Layout of Eye for an Eye's screens: 2-6 players (4-6 in alliances), every text size, both
displays, the longest names; nothing a player needs is cut, nothing overlaps, every touch
target is at least 48 px (see conftest.walk_layouts), in every state a player meets: a call
being built (the count keypad, choosing a target, Echo's figures), a parry window, a refusal,
the pause, the Menu's "Tribal cards & disputes" and "Call log", a knockout, between rounds and
the end of the match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DISPLAYS, walk_layouts

pytestmark = [pytest.mark.app, pytest.mark.long]


def test_every_eye_for_an_eye_screen_holds_its_layout(app_dirs: Path) -> None:
    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from rules.eye_for_an_eye.calls import NextRound, TimeUp, Unblockable

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: list[str] = []

    def check(name: str, widget: Any, step: int) -> Iterator[int]:
        """What conftest's walk does for a screen, for a state reached inside the hook."""
        players = len(app.session.game.setup.players)
        where = f"{players} players, {app.settings.text_size}, step {step}, {name}"
        for size in DISPLAYS:
            Window.size = size
            yield 3
            problems.extend(f"{where}: {p}" for p in layout_problems(widget, size))
            checked.append(f"{name}@{size}")
        Window.size = DISPLAYS[0]
        yield 1

    def playing(app: Any, step: int) -> Generator[int, None, list[tuple[str, Any]]]:
        """The states a player meets in a round, reached by the arena's own calls."""
        table = app.table
        calls, arena = table.calls, table.arena
        s = calls.session
        if s.game.state.phase != "playing":
            return []
        app.show("arena")
        if not s.clock.running:
            s.start_clock()
        calls.cancel()
        yield 1
        if step == 1:
            yield from menus(app, step)
        seats = [x for x in calls.seats() if x.playing and not x.knocked_out]
        attacker = seats[0]
        rivals = [x for x in seats if x.side != attacker.side]
        if not rivals:
            return []
        victim = rivals[-1]  # Echo at six players: his figures are the targets
        if step == 1 and len(seats) >= 3:  # a knockout (at two players it ends the round)
            me = attacker.character.short
            out = next(x for x in reversed(rivals) if len(x.figures) == 1)
            while s.game.state.phase == "playing" and not calls.seat_of(out.player).knocked_out:
                s.call(Unblockable(me, 6, out.character.short))
            yield 2
            if s.game.state.phase == "playing":
                app.show("arena")
                yield 2
                yield from check("arena, a knockout", arena, step)
        if step != 0:
            return []
        calls.tap_action(attacker.player, "attack")
        yield 2
        if calls.builder.needs_count:
            yield from check("arena, choosing a count", arena, step)
            calls.tap_count(calls.legal_counts()[0])
            yield 2
        if calls.builder.needs_target:
            yield from check("arena, choosing a target", arena, step)
            figures = calls.figures_to_target(victim.player)
            calls.tap_target(figures[-1][0] if figures else victim.player)
            yield 2
        clock.advance(0.5)
        app._tick(0.0)
        yield 2
        if calls.parry_left(victim.player) is not None:
            yield from check("arena, a parry window", arena, step)
        calls.cancel()
        if calls.possible(attacker.player, "defence"):
            calls.tap_count(1)  # no action chosen: refused, saying why
        else:
            calls.tap_action(attacker.player, "defence")  # nothing to parry: refused
        yield 2
        assert arena.refused and s.message, s.message
        yield from check("arena, a refusal", arena, step)
        arena.toggle_clock()  # paused for a dispute
        yield 2
        yield from check("arena, paused", arena, step)
        arena.toggle_clock()
        yield 1
        return []

    def menus(app: Any, step: int) -> Generator[int, None, None]:
        """The Menu's panels of the arena: tribal cards and disputes, the call log."""
        arena = app.table.arena
        arena.open_more()
        yield 2
        yield from check("tribal cards & disputes", arena.more_view, step)
        arena.more_view.dismiss(animation=False)
        arena.open_log()
        yield 2
        yield from check("call log", arena.log_view, step)
        arena.log_view.dismiss(animation=False)
        yield 1

    def states(app: Any, step: int) -> Generator[int, None, list[tuple[str, Any]]]:
        s = app.table.calls.session
        if s.game.state.phase == "playing":
            yield from playing(app, step)
        if step == 2 and not s.game.is_over:  # the round ends; the match is played out
            if s.game.state.phase == "playing":
                s.call(TimeUp())
            app.show("between")
            yield 2
            yield from check("between rounds", app.table.between, step)
            while not s.game.is_over:
                s.call(NextRound() if s.game.state.phase != "playing" else TimeUp())
            app.show("between")
            yield 2
            yield from check("game over", app.table.between, step)
        return []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        yield from walk_layouts(app, "eye-for-an-eye", problems, checked, extra=states)

    run_app(app, script, timeout=600)
    refused = [c for c in checked if c.startswith("refused")]
    assert sum(c.startswith("arena@") for c in checked) >= 2 * 3 * 4 * 4, refused
    states_seen = Counter(c.split("@")[0] for c in checked)
    for state in ("arena, choosing a count", "arena, choosing a target", "arena, a parry window",
                  "arena, a refusal", "arena, paused", "tribal cards & disputes", "call log",
                  "arena, a knockout", "between rounds", "game over"):
        assert states_seen[state] >= 2 * 3 * 2, (state, states_seen)
    kinds = Counter(p.split(": ", 1)[1] for p in problems)
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all; " + \
        "\n".join(f"{n} x {k}" for k, n in kinds.most_common(15))
