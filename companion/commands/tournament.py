"""`companion tournament ...`: run a tournament from the director's companion, or join one.

Organiser: ``new``, ``add``, ``drop``, ``next``, ``report``, ``correct``, ``standings``,
``export``, ``codes`` and ``serve`` (the broker, the director and the standings page until
Ctrl-C). A table without its screen: ``table --join CODE``. The whole thing on one machine:
``demo``. Every action is journaled before it is shown (docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.tournament.export import export_tournament, standings_text

HELP = "run a tournament across tables (director), join one (table), or play a demo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tournament", metavar="ID",
                        help="the tournament to act on (default: the current one)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = sub.add_parser("new", help="start a new tournament (it becomes the current one)")
    p.add_argument("name")
    p.add_argument("--game", default="eye-for-an-eye", help="game short name")
    p.add_argument("--style", choices=["eye-for-an-eye", "groups"],
                   help="eye-for-an-eye (the rulebook's) or groups (default for other games)")
    p.add_argument("--mode", choices=["every-eye", "alliances"], default="every-eye")
    p.add_argument("--rounds", type=int, help="qualifying or group rounds (default 5)")
    p.add_argument("--table-size", type=int, help="entrants per table (default 4)")
    p.add_argument("--final-size", type=int, help="groups style: players in the final")
    p.add_argument("--final-rounds", type=int, help="Eye for an Eye: rounds in the final")
    p.add_argument("--points", help="groups style: points by place, e.g. 3,2,1,0")
    p.add_argument("--bye-points", type=int)
    p.add_argument("--tied-ranks", choices=["share-higher", "share-lower"])
    p.add_argument("--game-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option for every table's game (JSON value), e.g. advanced=false")
    p.add_argument("--seed", type=int, default=None, help="seed for the draws (default: random)")
    p.add_argument("--tables", type=int, default=0, help="table companions to make codes for")
    p.add_argument("--listen", default="0.0.0.0", help="address the broker and page listen on")
    p.add_argument("--port", type=int, default=1883, help="the broker's port")
    p.add_argument("--web-port", type=int, default=8080,
                   help="the standings page's port (-1: no page)")
    p.add_argument("--address", default="", help="the address tables are given (default: "
                   "this machine's address on the local network)")
    p.add_argument("--broker", default="", metavar="HOST:PORT",
                   help="use this existing broker instead of starting one")
    p.add_argument("--broker-password", default="",
                   help="with --broker: the password of its 'director' user")

    sub.add_parser("list", help="every tournament on this companion")
    p = sub.add_parser("use", help="make another tournament the current one")
    p.add_argument("id")

    p = sub.add_parser("add", help="add entrants (late entrants play from the next round)")
    p.add_argument("names", nargs="+")
    p.add_argument("--members", action="append", default=[], metavar="A,B",
                   help="Alliances: a team's members, once per team name in order")
    p = sub.add_parser("drop", help="drop an entrant (not drawn again)")
    p.add_argument("name")
    p.add_argument("--reason", default="")

    sub.add_parser("next", help="draw the next round and show its seating")
    p = sub.add_parser("report", help="type in a table's result (one box, or a table offline)")
    p.add_argument("round", type=int)
    p.add_argument("table", type=int)
    p.add_argument("result", help="best first, '>' between places, '=' for a tie: "
                   "\"Ana > Ben = Cy > Dee\"")
    p = sub.add_parser("correct", help="correct a result (settles a conflict too)")
    p.add_argument("round", type=int)
    p.add_argument("table", type=int)
    p.add_argument("result")
    p.add_argument("--reason", default="")
    p.add_argument("--dry-run", action="store_true", help="only say what would change")

    p = sub.add_parser("standings", help="show the standings, the round and any conflicts")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("export", help="write events, standings and game files to a folder")
    p.add_argument("--output", type=Path, default=Path("tournament-export"))
    p = sub.add_parser("codes", help="each table's join code (and QR codes as SVG)")
    p.add_argument("--qr", type=Path, metavar="DIR", help="write one QR code per table here")
    p.add_argument("--tables", type=int, default=0, help="make codes for this many tables")
    p.add_argument("--address", default="", help="the address tables are given")
    p.add_argument("--replace", type=int, default=0, metavar="TABLE",
                   help="a new code for this table (a spare companion takes its place); "
                   "its old code stops working")

    p = sub.add_parser("serve", help="open the tournament to the tables: broker, director "
                       "and standings page, until Ctrl-C")
    p.add_argument("--address", default="", help="the address tables are given")

    p = sub.add_parser("table", help="a table companion without its screen: join, get "
                       "seatings, report (typed, or simulated)")
    p.add_argument("--join", required=True, metavar="CODE", help="the table's join code")
    p.add_argument("--simulate", action="store_true",
                   help="play each seated game with random calls and report it")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--delay", type=float, default=0.0,
                   help="with --simulate: seconds the players take before the result")
    p.add_argument("--resend", type=float, default=2.0, help="seconds between resends")
    p.add_argument("--until-over", action="store_true",
                   help="exit once the tournament is over and every report acknowledged")

    p = sub.add_parser("demo", help="a 16-player Eye for an Eye and a 12-player Dice Forge "
                       "tournament with simulated tables; writes standings and screenshots")
    p.add_argument("--output", type=Path, default=Path("tournament-demo"))
    p.add_argument("--no-screenshots", action="store_true")


def _fail(text: str, code: int = 1) -> int:
    print(f"companion tournament: {text}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from companion.tournament.protocol import ProtocolError
    from companion.tournament.service import ServiceError
    from companion.tournament.store import StoreError
    from rules.tournament import TournamentError

    action: Callable[[argparse.Namespace], int] = _ACTIONS[args.action]
    try:
        return action(args)
    except (TournamentError, StoreError, ProtocolError, ServiceError) as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(f"{e.strerror or e}" + (f": {e.filename}" if e.filename else ""))


# -- the director's actions ---------------------------------------------------------------------


def _store() -> Any:
    from companion import paths
    from companion.tournament.store import TournamentStore

    return TournamentStore(paths.journal_path())


def _desk(args: argparse.Namespace) -> Any:
    from companion.tournament.desk import TournamentDesk

    return TournamentDesk(_store(), args.tournament)


def _new(args: argparse.Namespace) -> int:
    from companion.tournament.desk import DirectorConfig, TournamentDesk

    fmt: dict[str, Any] = {"game": args.game, "mode": args.mode}
    for key in ("style", "rounds", "table_size", "final_size", "final_rounds", "bye_points",
                "tied_ranks"):
        if getattr(args, key) is not None:
            fmt[key.replace("_", "-")] = getattr(args, key)
    if args.points:
        try:
            fmt["points"] = [int(p) for p in args.points.split(",")]
        except ValueError:
            return _fail(f"--points {args.points!r}: whole numbers separated by commas", 2)
    options: dict[str, Any] = {}
    for item in args.game_option:
        key, eq, value = item.partition("=")
        if not eq:
            return _fail(f"--game-option {item!r}: expected KEY=VALUE", 2)
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    if options:
        fmt["game-options"] = options
    if args.broker and not args.broker_password:
        return _fail("--broker needs --broker-password (the password of its 'director' user)",
                     2)
    config = DirectorConfig(listen=args.listen, port=args.port, address=args.address,
                            external=args.broker, web_port=args.web_port,
                            director_password=args.broker_password)
    desk = TournamentDesk.create(_store(), args.name, fmt, seed=args.seed, config=config)
    if args.tables:
        desk.ensure_tables(args.tables)
    tid, tournament = desk.tid, desk.tournament
    print(f"tournament {tid}: {tournament.name}")
    print(tournament.format.describe())
    print("Next: `companion tournament add NAME...`, then `companion tournament serve` "
          "and `companion tournament next`.")
    return 0


def _list(args: argparse.Namespace) -> int:
    store = _store()
    records = store.records()
    if not records:
        print("no tournaments yet: `companion tournament new NAME`")
    for r in records:
        t, _ = store.load(r.id)
        state = "over" if t.is_over else (f"round {t.current.number}" if t.current
                                          else "not started")
        print(f"{'*' if r.current else ' '} {r.id}  {r.name}  ({len(t.entrants())} entrants, "
              f"{state})")
    return 0


def _use(args: argparse.Namespace) -> int:
    _store().use(args.id)
    print(f"current tournament: {args.id}")
    return 0


def _add(args: argparse.Namespace) -> int:
    desk = _desk(args)
    if args.members and len(args.members) != len(args.names):
        return _fail(f"{len(args.names)} team names but {len(args.members)} --members", 2)
    for i, name in enumerate(args.names):
        members = [m.strip() for m in args.members[i].split(",")] if args.members else []
        warned = desk.add_entrant(name, members)
        print(f"added {name}" + (f" ({', '.join(members)})" if members else ""))
        if warned:
            print(f"companion tournament: warning: {warned}", file=sys.stderr)
    return 0


def _drop(args: argparse.Namespace) -> int:
    _desk(args).drop(args.name, args.reason)
    print(f"dropped {args.name}: not drawn again; results played stand")
    return 0


def _next(args: argparse.Namespace) -> int:
    desk = _desk(args)
    r = desk.draw_next()
    print(_round_text(desk.tournament, r.number))
    return 0


def _round_text(t: Any, number: int) -> str:
    from rules.tournament import format_placings

    r = t.rounds[number - 1]
    lines = [f"Round {r.number}: {r.stage}"]
    for table in r.tables:
        label = f" (group {table.group})" if table.group else ""
        result = r.results.get(table.number)
        done = f"  -> {format_placings(result.placings)}" if result else ""
        lines.append(f"  table {table.number}{label}: {', '.join(table.seats)}{done}")
    if r.byes:
        lines.append(f"  byes: {', '.join(r.byes)}")
    return "\n".join(lines)


def _report(args: argparse.Namespace) -> int:
    from rules.tournament import parse_placings

    outcome = _desk(args).report(args.round, args.table, parse_placings(args.result))
    print(f"{outcome.status}: {outcome.text}")
    return 0 if outcome.status in ("recorded", "duplicate") else 1


def _correct(args: argparse.Namespace) -> int:
    from rules.tournament import parse_placings

    desk = _desk(args)
    placings = parse_placings(args.result)
    if args.dry_run:
        change = desk.preview_correction(args.round, args.table, placings, args.reason)
        print("Would change:")
    else:
        change = desk.correct(args.round, args.table, placings, args.reason)
    print(change.text())
    return 0


def _standings(args: argparse.Namespace) -> int:
    summary = _desk(args).summary()
    print(json.dumps(summary) if args.json else standings_text(summary))
    return 0


def _export(args: argparse.Namespace) -> int:
    written = export_tournament(_desk(args), args.output)
    print(f"wrote {len(written)} files into {args.output}")
    return 0


def _codes(args: argparse.Namespace) -> int:
    from companion.tournament.service import lan_address

    desk = _desk(args)
    desk.ensure_tables(args.tables or None)
    if args.replace:
        desk.replace_code(args.replace)
        print(f"table {args.replace} has a new code; its old code no longer logs in (a "
              "running `serve` gives the broker the new code within a second)")
    address = args.address or desk.config.address or lan_address()
    codes = desk.join_codes(address)
    for code in codes:
        print(f"table {code.table}: {code.text()}")
    if args.qr:
        import segno

        from companion.tournament.store import private_folder

        private_folder(args.qr)  # each file lets a table report: owner-only
        for code in codes:
            svg = args.qr / f"table-{code.table}.svg"
            svg.unlink(missing_ok=True)
            fd = os.open(svg, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                segno.make(code.text(), error="m").save(f, kind="svg", scale=8)
        print(f"QR codes in {args.qr}")
    print("Keep these codes to yourself: each lets one table report its results.")
    return 0


def _wait_for_signal(tick: Callable[[], None]) -> None:
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    while not done.wait(0.5):
        tick()


def _serve(args: argparse.Namespace) -> int:
    from companion.tournament.service import TournamentService

    with TournamentService(_store(), args.tournament) as service:
        print(f"serving tournament {service.tid} ({service.desk.tournament.name})", flush=True)
        for code in service.join_codes(args.address):
            print(f"  table {code.table}: {code.text()}")
        if service.web is not None:
            print(f"standings page: {service.page_url(args.address)}")
        print("Ctrl-C stops the broker, the director and the page.", flush=True)
        shown = 0

        def show_log() -> None:
            nonlocal shown
            director = service.director
            if director is None or director.log_count == shown:
                return
            for line in director.log[-min(director.log_count - shown, len(director.log)):]:
                print(line, flush=True)
            shown = director.log_count

        _wait_for_signal(show_log)
    print("stopped: no tournament port is open")
    return 0


def _table(args: argparse.Namespace) -> int:
    from companion import paths
    from companion.tournament.protocol import JoinCode, Seating
    from companion.tournament.simulate import play_seating
    from companion.tournament.store import TableStore
    from companion.tournament.table import TableClient
    from rules.tournament import parse_placings

    code = JoinCode.parse(args.join)
    store = TableStore(paths.journal_path())
    client = TableClient(store, code, resend_seconds=args.resend,
                         on_ack=lambda a: print(f"ack {a.report_id[:8]} {a.status}: {a.text}",
                                                flush=True))
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    seen: set[tuple[int, int | None]] = set()

    def handle(seating: Seating) -> None:
        key = (seating.round, seating.table)
        if key in seen:
            return
        seen.add(key)
        print(f"seating: {seating.describe()}", flush=True)
        if seating.table is None or not args.simulate:
            return
        if client.reported(seating.round, seating.table) is not None:
            print(f"already reported round {seating.round}", flush=True)
            return
        placings, text = play_seating(seating, args.seed)
        if done.wait(args.delay):
            return
        report = client.report(placings, text, seating)
        print(f"reported {report.report_id[:8]}: {report.describe()}", flush=True)

    if not args.simulate:
        def read_results() -> None:
            for line in sys.stdin:
                if not line.strip():
                    continue
                try:
                    report = client.report(parse_placings(line.strip()))
                    print(f"queued: {report.describe()}", flush=True)
                except ValueError as e:
                    print(f"not reported: {e}", flush=True)
        threading.Thread(target=read_results, daemon=True).start()

    with client:
        print(f"table {code.table} of tournament {code.tournament}: connecting to "
              f"{code.host}:{code.port}", flush=True)
        said = ""
        while not done.wait(0.1):
            if client.refused != said:
                said = client.refused
                if said:
                    print(said, flush=True)
            if client.seating is not None:
                handle(client.seating)
            if args.until_over and client.state.get("over") and not client.pending():
                break
    return 0


def _demo(args: argparse.Namespace) -> int:
    from companion.tournament.demo import run_demo

    if args.output.exists() and not args.output.is_dir():
        return _fail(f"--output {str(args.output)!r} is a file; give a folder", 2)
    written = run_demo(args.output, screenshots=not args.no_screenshots,
                       log=lambda line: print(line, flush=True))
    shots = [p for p in written if p.suffix == ".png"]
    games = [p for p in written if p.suffix == ".game"]
    print(f"wrote {len(written)} files into {args.output}: standings.txt, each tournament's "
          f"events.json and standings, {len(games)} game files, {len(shots)} screenshots")
    for path in shots:
        print(f"  {path}")
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {
    "new": _new, "list": _list, "use": _use, "add": _add, "drop": _drop, "next": _next,
    "report": _report, "correct": _correct, "standings": _standings, "export": _export,
    "codes": _codes, "serve": _serve, "table": _table, "demo": _demo}
