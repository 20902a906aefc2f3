"""The director's Tournament screen, by touch, in the real app: a tournament made, six entrants
added (from the players' names and typed), round 1 drawn, a result typed in, a table's game
played here to its end and recorded by itself, a result corrected after its preview, the
tournament served on loopback (its own Mosquitto, each table's QR code, the standings page)
and stopped. Screenshots of every page at 800x480 in the largest text size."""

from __future__ import annotations

import random
import urllib.request
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import (
    button,
    choose,
    port_open,
    shots_folder,
    texture_rgb,
    wait_for,
    words,
)

pytestmark = pytest.mark.app

NAMES = ["Ana", "Ben", "Cyra", "Dmitri", "Eli"]


def _journal_with_players(path: Path) -> None:
    """A journal that knows some players (their names are offered as entrants)."""
    import rules
    from companion.journal import Journal
    from rules import Entry

    with Journal(path) as j:  # each with a call: a game with none is not kept
        for players, seed in ((NAMES[:3], 1), (NAMES[2:], 2)):
            game = rules.new_game("dice-ocalypse", players, seed=seed)
            gid = j.start_game(game.setup, "")
            j.record_call(gid, Entry(game.legal_calls()[0].text()))


def _loopback_config(folder: Path) -> tuple[int, int]:
    from companion.tournament.broker import free_port

    port, web = free_port(), free_port()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(
        f'[tournament]\nlisten = "127.0.0.1"\nport = {port}\nweb_port = {web}\n'
        'address = "127.0.0.1"\n', encoding="utf-8")
    return port, web


def test_a_tournament_run_by_touch(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.tournament.join import scan_join_code
    from rules.tournament import ResultCorrected

    journal = app_dirs / "j.sqlite3"
    _journal_with_players(journal)
    port, web = _loopback_config(app_dirs / "config")
    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=journal,
                       settings=settings_mod.Settings(text_size="huge"))
    problems: list[str] = []
    seen: dict[str, Any] = {}

    def shot(name: str) -> None:
        problems.extend(touch_problems(app.sm.current_screen, (800, 480)))
        d.screenshot(shots / f"tournament-screen-{name}.png")

    d: Driver

    def script(driver: Driver) -> Generator[int | None, None, None]:
        nonlocal d
        d = driver
        start = app.screens["start"]
        yield 2
        d.tap(button(start, "Tournament"))
        yield 3
        scr = app.screens["tournament"]
        assert scr.page == "home"
        shot("home")
        d.tap(button(scr, "Run a tournament"))
        yield 3
        new = scr.pages["new"]
        new.name.text = "Friday Arena Cup"  # typed on the keyboard
        yield from choose(d, new.rounds, "3")
        shot("new")
        d.tap(new.create_button)
        yield 3
        hub = app.tournaments
        assert hub is not None and hub.desk is not None and scr.page == "entrants"
        entrants = scr.pages["entrants"]
        for i, name in enumerate(NAMES):  # the players' names, by touch
            d.tap(entrants.chip_buttons[name])
            yield 2
            if i == 2:
                shot("entrants")
        entrants.name.text = "Fay"
        d.tap(button(scr, "Add"))
        yield 2
        entrants.name.text = "Gus"
        d.tap(button(scr, "Add"))
        yield 2
        entrants.rows.parent.scroll_to(entrants.buttons["Gus"], animate=False)  # scrolled
        yield 3
        d.tap(entrants.buttons["Gus"])  # Gus cannot stay after all
        yield 2
        t = hub.desk.tournament
        assert [x.name for x in t.entrants()] == [*NAMES, "Fay", "Gus"]
        assert t.active() == (*NAMES, "Fay") and "Gus" not in entrants.buttons

        d.tap(scr.tab_buttons["round"])
        yield 2
        page = scr.pages["round"]
        d.tap(page.draw)
        yield 3
        t = hub.desk.tournament
        assert t.current is not None and t.current.number == 1
        tables = t.current.tables
        assert [len(tb.seats) for tb in tables] == [3, 3]
        for tb in tables:
            assert ", ".join(tb.seats) in words(page.tables)
        shot("round")

        # Table 1's result typed in by the organiser: the seats in reverse order.
        first = tables[0]
        d.tap(page.rows[1]["result"])
        yield 3
        dialog = scr.dialog
        assert dialog is not None
        order = list(reversed(first.seats))
        for place, name in enumerate(order):
            yield from choose(d, dialog.spins[name], ("1st", "2nd", "3rd")[place])
        shot("result")
        d.tap(dialog.confirm)
        yield 3
        got = hub.desk.tournament.current.results[1]
        assert got.placings == tuple((n,) for n in order) and got.source == "director"

        # Table 2 played at this very table: its result is recorded when the game ends.
        d.tap(page.rows[2]["play"])
        yield 3
        session = app.session
        assert session is not None and tuple(session.game.setup.players) == tables[1].seats
        rng = random.Random(5)
        for _ in range(3000):
            if session.game.is_over:
                break
            session.call(session.game.random_call(rng))
        assert session.game.is_over
        yield 3  # the hub hears the session
        result = hub.desk.tournament.current.results.get(2)
        assert result is not None and result.source == "director"
        assert [g[:2] for g in hub.desk.store.games(hub.desk.tid)] == [(1, 2)]
        app.end_game()
        yield 2
        app.show("tournament")
        yield 3
        assert scr.page == "round"
        assert "Correct" in words(page.rows[2]["correct"])

        d.tap(scr.tab_buttons["standings"])
        yield 3
        standings = words(scr.pages["standings"].rows)
        assert all(name in standings for name in [*NAMES, "Fay"])
        shot("standings")
        d.tap(scr.tab_buttons["final"])
        yield 3
        assert "drawn from the standings after round 3" in words(scr.pages["final"].lines)
        shot("final")

        # A correction: the preview says what changes before anything does.
        d.tap(scr.tab_buttons["round"])
        yield 2
        d.tap(page.rows[1]["correct"])
        yield 3
        dialog = scr.dialog
        assert dialog is not None and dialog.confirm.disabled  # preview first
        for place, name in enumerate(first.seats):
            yield from choose(d, dialog.spins[name], ("1st", "2nd", "3rd")[place])
        before = len(hub.desk.tournament.events)
        d.tap(dialog.preview_button)
        yield 3
        assert "Would change" in dialog.preview_label.text
        assert first.seats[0] in dialog.preview_label.text
        assert len(hub.desk.tournament.events) == before  # a preview changes nothing
        shot("correct")
        d.tap(dialog.confirm)
        yield 3
        events = hub.desk.tournament.events
        assert isinstance(events[-1], ResultCorrected)
        assert hub.desk.tournament.current.results[1].placings == tuple(
            (n,) for n in first.seats)

        # Serving: the broker, the director and the page, on loopback; each table's code.
        d.tap(scr.tab_buttons["network"])
        yield 2
        net = scr.pages["network"]
        assert not port_open(port) and not port_open(web)
        shot("network-off")
        d.tap(net.serve)
        yield from wait_for(lambda: hub.serve_state == "serving", "the service to start")
        yield 3
        assert port_open(port) and port_open(web)
        codes = hub.join_codes()
        assert [c.table for c in codes] == [1, 2]
        shown = net.code.text.replace("[b]", "").replace("[/b]", "").replace("\n", "")
        assert codes[0].text() in shown and "127.0.0.1" in codes[0].text()
        rgb = texture_rgb(net.qr.texture)
        scanned = scan_join_code(rgb) or scan_join_code(rgb[::-1].copy())
        assert scanned == codes[0]  # the QR code on the screen is table 1's code
        url = hub.page_url()
        assert url == f"http://127.0.0.1:{web}/" and url in net.info.text
        with urllib.request.urlopen(url, timeout=5) as reply:
            assert reply.status == 200
        shot("network")
        yield from choose(d, net.table_spin, net.table_spin.values[1])
        assert codes[1].text().split("@")[0] in net.code.text
        d.tap(net.more)  # one more table: the running broker takes its credentials
        yield from wait_for(lambda: len(hub.join_codes()) == 3, "a third table's code")
        # The page shows it once the broker has it (a moment later on a busy machine).
        yield from wait_for(lambda: len(net.table_spin.values) == 3, "a third table to choose")
        d.tap(net.serve)  # Stop
        yield from wait_for(lambda: hub.serve_state == "stopped", "the service to stop")
        assert not port_open(port) and not port_open(web)
        seen["config"] = hub.desk.config

        # Round 2: the organiser types table 1's result in, then table 1's companion reports
        # another (as the director's network thread would): a conflict, settled by touch.
        d.tap(scr.tab_buttons["round"])
        yield 2
        d.tap(page.draw)
        yield 3
        r2 = hub.desk.tournament.current
        assert r2.number == 2
        seats = r2.table(1).seats
        typed = tuple((n,) for n in seats)
        told = tuple((n,) for n in reversed(seats))
        hub.report_by_hand(2, 1, typed)
        assert hub.desk.report(2, 1, told, "table-1", "t1-r2").status == "conflict"
        hub.changed_from_thread()
        yield 3
        assert "settle" in page.rows[1] and "disagree" in words(page.tables)
        d.tap(page.rows[1]["settle"])
        yield 3
        dialog = scr.dialog
        assert dialog is not None and len(dialog.use_buttons) == 2
        d.tap(dialog.use_buttons[1])  # the table's result
        yield 3
        assert "Would change" in dialog.preview_label.text and not dialog.confirm.disabled
        shot("settle")
        d.tap(dialog.confirm)
        yield 3
        t = hub.desk.tournament
        assert t.conflicts() == [] and t.current.results[1].placings == told

        # The rest of the tournament, typed in (the screens follow), to the final ranking.
        rng = random.Random(9)
        for _ in range(12):
            t = hub.desk.tournament
            if t.is_over:
                break
            if t.current is not None and t.current.complete:
                hub.draw_next()
                t = hub.desk.tournament
            for table in t.current.tables:
                if table.number not in t.current.results:
                    order = list(table.seats)
                    rng.shuffle(order)
                    hub.report_by_hand(t.current.number, table.number,
                                       tuple((n,) for n in order))
        t = hub.desk.tournament
        assert t.is_over and t.winner()
        yield 3
        assert "over" in page.label.text and t.winner() in page.label.text
        shot("round-final")
        d.tap(scr.tab_buttons["final"])
        yield 3
        shown = words(scr.pages["final"].lines)
        assert f"Winner: {t.winner()}" in shown and "The final" in shown
        shot("final-over")

    run_app(app, script, timeout=240)
    assert problems == []
    assert seen["config"].serving is False  # stopped by the organiser: not served at start


def test_the_director_resumes_exactly_after_a_power_cut(app_dirs: Path) -> None:
    """The director's app is killed (kill -9) while serving: restarted, it has the same
    tournament (its journaled events, nothing more or less), serves it again by itself with
    the same join codes (its broker, left running, is taken over), and stops by touch."""
    import contextlib
    import os
    import signal
    import subprocess
    import sys

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.tournament.service import tournament_folder

    journal = app_dirs / "j.sqlite3"
    port, web = _loopback_config(app_dirs / "config")
    child = subprocess.Popen([sys.executable, str(Path(__file__).with_name(
        "tournament_child.py")), str(journal)], stdout=subprocess.PIPE, text=True,
        env=dict(os.environ))
    assert child.stdout is not None
    said = ""
    for line in child.stdout:
        if line.startswith("ready "):
            said = line.split()
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert said, "the child app never served"
    tid, events, codes = said[1], int(said[2]), said[3:]
    pid_file = tournament_folder(tid) / "broker" / "mosquitto.pid"
    seen: dict[str, Any] = {}
    app = CompanionApp(clock=ManualClock(), journal_file=journal)

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        hub = app.tournaments
        assert hub is not None and hub.desk is not None and hub.desk.tid == tid
        t = hub.desk.tournament
        assert len(t.events) == events  # exactly what was journaled
        assert t.current is not None and t.current.number == 1 and 1 in t.current.results
        yield from wait_for(lambda: hub.serve_state == "serving", "serving again")
        assert [c.text() for c in hub.join_codes()] == codes
        assert port_open(port) and port_open(web)
        app.show("tournament")
        yield 3
        scr = app.screens["tournament"]
        d.tap(scr.tab_buttons["network"])
        yield 2
        assert scr.pages["network"].serve.text == "Stop"
        d.tap(scr.pages["network"].serve)
        yield from wait_for(lambda: hub.serve_state == "stopped", "the service to stop")
        seen["closed"] = not port_open(port) and not port_open(web)
        seen["serving"] = hub.desk.config.serving

    try:
        run_app(app, script, timeout=240)
    finally:
        # Never leave this test's broker behind, whatever happened (and never anything else:
        # the pid must still be a mosquitto run with this tournament's config).
        with contextlib.suppress(OSError, ValueError):
            pid = int(pid_file.read_text().strip())
            if str(pid_file.parent).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
    assert seen == {"closed": True, "serving": False}
