"""Fair service: a table that floods the director slows only itself (issue 42).

One table sending 1,000 reports a second made the other tables' reports wait a median 19 s
(one queue for all of them at the broker and in the director), and 237,000 online/offline
flips pushed 300 MB to the open pages. Now each table has its own queue at the broker (a
session of the director's per table) and in the director (served in turn, with a token bucket
each), and the page is sent a new body at most a few times a second. The inbox and the feed
run on the tests' own clock; the broker test asserts an order (the other tables are answered
while the flood is still being worked through), never a time.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from hostile_mqtt import flood_then_report
from tournament_net import new_tournament, wait_until

from companion.tournament.inbox import Delivery, FairInbox
from companion.tournament.service import TournamentService
from companion.tournament.store import TournamentStore
from companion.tournament.web import StandingsFeed


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _put(inbox: FairInbox, user: str, n: int, tag: str = "") -> int:
    return sum(inbox.put(Delivery(user, f"{tag}{user}-{i}".encode(), 0.0)) for i in range(n))


def test_a_flooding_table_waits_on_itself_the_others_are_served_in_turn() -> None:
    clock = Clock()
    inbox = FairInbox(rate=2.0, burst=10, most=32, clock=clock)
    assert _put(inbox, "table-1", 5000) == 32  # its queue holds 32; the rest is dropped
    assert inbox.dropped["table-1"] == 4968
    for n in range(2, 17):
        _put(inbox, f"table-{n}", 1)
    taken = [inbox.take(0) for _ in range(30)]
    order = [d.user for d in taken if d is not None]
    # The 15 others are all served within the first 16 turns (one flood message between).
    others = [i for i, user in enumerate(order) if user != "table-1"]
    assert len(others) == 15 and max(others) <= 15
    # The flood spent its burst of 10 and then waits for its tokens; nothing else waits.
    assert order.count("table-1") == 10 and inbox.take(0) is None
    clock.now += 1.0  # two tokens a second
    again = [inbox.take(0), inbox.take(0), inbox.take(0)]
    assert [d.user if d else None for d in again] == ["table-1", "table-1", None]
    # A table that sends now is not behind the flood's queue.
    _put(inbox, "table-5", 1, "late-")
    got = inbox.take(0)
    assert got is not None and got.payload == b"late-table-5-0"


def test_each_table_keeps_its_own_order_and_forgets_what_a_dropped_session_held() -> None:
    clock = Clock()
    inbox = FairInbox(rate=100.0, burst=100, most=10, clock=clock)
    _put(inbox, "table-1", 4)
    _put(inbox, "table-2", 2)
    gone = inbox.forget("table-1", lambda d: d.payload.endswith(b"-0"))
    assert [d.payload for d in gone] == [b"table-1-1", b"table-1-2", b"table-1-3"]
    order = [d.payload for d in iter(lambda: inbox.take(0), None)]
    assert order == [b"table-1-0", b"table-2-0", b"table-2-1"]
    assert inbox.waiting() == {}


def test_a_waiting_reader_wakes_for_a_message_and_for_close() -> None:
    inbox = FairInbox(rate=1.0, burst=1, most=4)
    got: list[Delivery | None] = []
    reader = threading.Thread(target=lambda: got.append(inbox.take(60)))
    reader.start()
    inbox.put(Delivery("table-3", b"x", 0.0))
    reader.join(timeout=60)
    assert [d.payload if d else None for d in got] == [b"x"]
    reader = threading.Thread(target=lambda: got.append(inbox.take(60)))
    reader.start()
    inbox.close()
    reader.join(timeout=60)
    assert got[-1] is None and not reader.is_alive()


def test_an_inbox_that_could_hold_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="rate 0"):
        FairInbox(rate=0, burst=1, most=1)


def _feed_loop(feed: StandingsFeed) -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    loop.call_soon_threadsafe(feed.attach, loop)
    wait_until(lambda: feed._loop is not None, what="the feed to attach")
    return loop, thread


def _settled(loop: asyncio.AbstractEventLoop) -> None:
    """Every callback handed to the loop so far has run."""
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(timeout=30)


def test_the_page_is_sent_one_body_for_any_number_of_changes_in_a_gap() -> None:
    state = {"n": 0}
    feed = StandingsFeed(lambda: dict(state), min_gap=3600.0)  # a gap no test outlives
    loop, thread = _feed_loop(feed)
    try:
        for n in range(1, 20_001):
            state["n"] = n
            feed.bump()
        _settled(loop)
        # the first change is sent at once; every later one waits for the gap, together
        assert feed.version == 2
    finally:
        feed.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


def test_the_last_change_always_reaches_the_page() -> None:
    state = {"n": 0}
    feed = StandingsFeed(lambda: dict(state), min_gap=0.01)
    loop, thread = _feed_loop(feed)
    try:
        for n in range(1, 2_001):
            state["n"] = n
            feed.bump()
        seen = feed.version
        wait_until(lambda: not feed._dirty and not feed._scheduled, what="the last body")
        import jinja2

        env = jinja2.Environment(loader=jinja2.DictLoader({"board.html": "{{ s.n }}"}))
        version, snap, body = feed.render(env)
        assert version >= seen and snap["n"] == 2_000 and body == "2000"
    finally:
        feed.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


FORMAT = {"game": "dice-forge", "rounds": 1, "final-size": 2}


@pytest.mark.slow
def test_a_flooding_table_does_not_hold_up_the_others_reports(tmp_path: Path) -> None:
    """Table 1 queues 300 reports at the broker before three other tables report once each:
    each of the three is answered while table 1's flood is still far from worked through."""
    db, config = new_tournament(tmp_path / "director", 16, FORMAT)
    service = TournamentService(TournamentStore(db), folder=tmp_path / "director" / "t",
                                connect_timeout=60)
    service.start()
    flood = None
    try:
        service.desk.draw_next()
        seats = {t.number: t.seats for t in service.desk.tournament.rounds[0].tables}
        flood = flood_then_report(config.port, "tt01", dict(service.config.table_secrets),
                                  seats, 300)
        assert all(ack.status == "recorded" for ack, _ in flood.others.values()), flood.others
        assert flood.answered_then < 300, "the other tables waited for the whole flood"
        service.desk.refresh()
        assert set(service.desk.tournament.rounds[0].results) == {2, 3, 4}
        flooder = flood.flooder
        wait_until(lambda: len(flooder.acks) > flood.answered_then,
                   what="the flood to go on, slowly")
        assert all(a.status == "rejected" for a in flooder.acks)
    finally:
        if flood is not None:
            flood.close()
        service.stop()


def test_a_table_flipping_fills_neither_the_log_nor_the_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of online/offline flips are one line of the log (and one more saying where
    the table is now), and one change waiting for the page."""
    from tournament_desks import desk_with_round

    from companion.tournament import director as director_mod
    from companion.tournament.director import Director

    told: list[int] = []
    director = Director(desk_with_round(tmp_path), "127.0.0.1", 1, "unused",
                        on_change=lambda: told.append(1))
    monkeypatch.setattr(director_mod, "STATUS_SECONDS", 3600.0)  # a gap no test outlives
    for n in range(10_000):
        director.status("table-1", n % 2 == 0)
    lines = [line for line in director.log if "table-1" in line]
    assert len(lines) == 1 and lines[0].endswith("table-1 joined (online)")
    assert director.online["table-1"] is False and director._quiet_due and told == []
    monkeypatch.setattr(director_mod, "STATUS_SECONDS", 0.0)
    director._say_statuses()
    assert director.log[-1].endswith("table-1 is offline (it changed 9,999 times since the "
                                     "line before)")
