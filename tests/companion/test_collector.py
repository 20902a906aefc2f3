"""The app's garbage collection policy (companion.collector): the oldest generation is
collected when the table rests, as soon as Python would have, or when asked; a table that never
rests is collected anyway once far past due; Python's own count is taken over and given back."""

from __future__ import annotations

import gc

from companion.collector import DUE_AFTER, FORCE_AFTER, IDLE_S, NEVER, IdleCollector


class Table:
    """A clock that moves when told, and a count of middle-generation collections."""

    def __init__(self) -> None:
        self.t = 100.0
        self.passed = 0
        self.collected = 0

    def collect(self) -> None:
        self.collected += 1
        self.passed = 0


def collector(table: Table) -> IdleCollector:
    return IdleCollector(now=lambda: table.t, passed=lambda: table.passed,
                         collect=table.collect)


def test_collected_only_when_resting_and_due() -> None:
    table = Table()
    c = collector(table)
    table.passed = DUE_AFTER
    c.touched()
    table.t += IDLE_S / 2
    assert not c.check(), "collected while a finger is still on the table"
    table.t += IDLE_S
    assert c.check() and table.collected == 1 and c.collections == 1
    table.t += 10 * IDLE_S
    table.passed = DUE_AFTER - 1
    assert not c.check(), "collected before Python would have"


def test_asked_for_at_the_next_rest_and_forced_when_never_resting() -> None:
    table = Table()
    c = collector(table)
    c.soon()
    c.touched()
    assert not c.check()
    table.t += IDLE_S
    assert c.check() and not c.wanted
    table.passed = FORCE_AFTER - 1
    c.touched()
    assert not c.check()
    table.passed = FORCE_AFTER
    assert c.check(), "a table that never rests is still collected"


def test_start_takes_over_the_oldest_generation_and_stop_gives_it_back() -> None:
    before = gc.get_threshold()
    c = IdleCollector()
    try:
        c.start()
        assert gc.get_threshold() == (before[0], before[1], NEVER)
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0
    finally:
        c.stop()
        gc.unfreeze()
    assert gc.get_threshold() == before
