"""`companion tournament demo`: two whole tournaments on one machine, with simulated tables.

A 16-player Eye for an Eye tournament (five qualifying rounds, elimination groups, the final)
and a 12-player Dice Forge group tournament, each directed by a real
:class:`~companion.tournament.service.TournamentService` (its own Mosquitto on 127.0.0.1, the
director, the standings page) with one :class:`~companion.tournament.table.TableClient` per
table that plays its seated game with the rules engine and reports over MQTT, exactly as table
companions do. Everything lives in a throwaway folder; the output folder gets each
tournament's standings, events and game files, and screenshots of the page on a phone and a
projector. With no Mosquitto installed, the results go straight to the director's desk instead
("one box, no network"), and the demo says so.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.tournament.broker import BrokerError, find_mosquitto, free_port
from companion.tournament.desk import DirectorConfig, TournamentDesk
from companion.tournament.screenshot import SIZES, screenshot
from companion.tournament.service import TournamentService
from companion.tournament.simulate import play_seating
from companion.tournament.store import TableStore, TournamentStore
from companion.tournament.table import TableClient
from rules.tournament import Tournament

WAIT = 30.0  # seconds any one step may take before the demo gives up, saying which

EYE_PLAYERS = ("Ana", "Ben", "Cyra", "Dmitri", "Edda", "Farouk", "Gwen", "Hiro", "Ines", "Jomo",
               "Kaia", "Lars", "Mele", "Nour", "Otto", "Priya")
FORGE_PLAYERS = ("Ada", "Bo", "Cas", "Dai", "Eli", "Fen", "Gus", "Hal", "Ivy", "Jun", "Kit",
                 "Liv")


@dataclass(frozen=True)
class DemoSpec:
    tid: str
    slug: str
    name: str
    players: tuple[str, ...]
    fmt: dict[str, Any]
    shots: tuple[tuple[str, int], ...]  # (stage, nth round of it) to photograph half-reported


SPECS = (
    DemoSpec("eyes", "eye-for-an-eye-16", "Friday Arena Cup", EYE_PLAYERS, {},
             (("qualifying", 3), ("elimination-2", 1))),
    DemoSpec("forg", "dice-forge-12", "Dice Forge League", FORGE_PLAYERS,
             {"game": "dice-forge", "rounds": 3}, (("group", 2),)),
)


class DemoError(RuntimeError):
    """Raised when a step of the demo does not happen in time; says which."""


def run_demo(output: Path, *, screenshots: bool = True,
             log: Callable[[str], None] = print) -> list[Path]:
    """Run both tournaments; returns the files written into ``output``."""
    output.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        find_mosquitto()
        network = True
    except BrokerError as e:
        log(f"{e}\nPlaying on one box: results go straight to the director.")
        network = False
    with tempfile.TemporaryDirectory(prefix="companion-tournament-demo-") as tmp:
        for spec in SPECS:
            written += _run_one(spec, Path(tmp), output / spec.slug, network, screenshots, log)
    summary = output / "standings.txt"
    summary.write_text("\n\n".join((output / s.slug / "standings.txt").read_text(
        encoding="utf-8") for s in SPECS), encoding="utf-8")
    written.append(summary)
    return written


def _run_one(spec: DemoSpec, tmp: Path, out: Path, network: bool, shots: bool,
             log: Callable[[str], None]) -> list[Path]:
    from companion.tournament.export import export_tournament

    store = TournamentStore(tmp / f"{spec.slug}-director.sqlite3")
    tournament = Tournament.new(spec.name, spec.fmt, seed=2026)
    for name in spec.players:
        tournament.add_entrant(name)
    tid = spec.tid  # fixed, so that the demo plays the same games every time
    config = DirectorConfig(listen="127.0.0.1", port=free_port(), address="127.0.0.1",
                            web_port=0 if network else -1)
    store.create(tid, tournament, config.to_json())
    log(f"{spec.name} ({tid}): {tournament.format.describe()}")
    written: list[Path] = []
    if not network:
        desk = TournamentDesk(store, tid)
        while not desk.tournament.is_over:
            r = desk.draw_next()
            for n, seating in desk.seatings(len(r.tables)).items():
                placings, _ = play_seating(seating)
                desk.report(r.number, n, placings)
        written += export_tournament(desk, out)
        return written
    with TournamentService(store, tid, folder=tmp / tid) as service:
        desk = service.desk
        clients = [TableClient(TableStore(tmp / f"{spec.slug}-table-{c.table}.sqlite3"), c,
                               resend_seconds=1.0)
                   for c in service.join_codes("127.0.0.1")]
        for client in clients:
            client.start()
        try:
            for client in clients:
                if not client.wait_connected(WAIT):
                    raise DemoError(f"table {client.code.table} could not connect")
            url = service.page_url()
            log(f"  standings page: {url}")
            while not desk.tournament.is_over:
                r = desk.draw_next()
                playing = [c for c in clients if any(t.number == c.code.table
                                                     for t in r.tables)]
                nth = sum(x.stage == r.stage for x in desk.tournament.rounds)
                shoot = shots and (r.stage, nth) in spec.shots
                half = max(1, len(playing) // 2) if shoot else len(playing)
                _play(playing[:half], r.number)
                if half < len(playing):
                    _wait_results(desk, len(r.tables) - half)
                    written += _shots(url, out, f"round-{r.number:02d}-{r.stage}", log)
                    _play(playing[half:], r.number)
                _wait_results(desk, 0)
                log(f"  round {r.number} ({r.stage}): "
                    + "; ".join(f"table {t.number} {_result(desk, r.number, t.number)}"
                                for t in r.tables))
            if shots:
                written += _shots(url, out, "final-standings", log)
            log(f"  winner: {desk.tournament.winner()}")
        finally:
            for client in clients:
                client.stop()
        written += export_tournament(desk, out)
    return written


def _play(clients: list[TableClient], round_number: int) -> None:
    for client in clients:
        if not client.wait_for(_seated(client, round_number), WAIT):
            raise DemoError(f"table {client.code.table} got no seating for round "
                            f"{round_number}")
        seating = client.seating
        assert seating is not None
        placings, text = play_seating(seating)
        client.report(placings, text, seating)


def _seated(client: TableClient, round_number: int) -> Callable[[], bool]:
    return lambda: client.seating is not None and client.seating.round == round_number


def _wait_results(desk: TournamentDesk, missing: int) -> None:
    deadline = time.monotonic() + WAIT
    while len(desk.tournament.missing()) > missing:
        if time.monotonic() > deadline:
            raise DemoError(f"results missing after {WAIT:.0f} s: tables "
                            + ", ".join(map(str, desk.tournament.missing())))
        time.sleep(0.05)
        desk.refresh()


def _result(desk: TournamentDesk, round_number: int, table: int) -> str:
    from rules.tournament import format_placings

    r = desk.tournament.rounds[round_number - 1]
    held = r.results.get(table)
    return format_placings(held.placings) if held else "-"


def _shots(url: str, out: Path, name: str, log: Callable[[str], None]) -> list[Path]:
    paths = []
    for kind, size in SIZES.items():
        path = out / f"{name}-{kind}.png"
        if screenshot(url, path, size):
            paths.append(path)
        else:
            log(f"  no screenshot {path.name}: Chromium is not installed (apt: chromium)")
            break
    return paths
