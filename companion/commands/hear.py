"""`companion hear WAV... --game eye-for-an-eye --seats "Grubic,Riparian,Banksia"`: the calls
heard in recordings, as the table would take them (docs/voice.md).

Each file is heard on its own, in a game of its own set up from ``--seats`` (the round clock
running from the file's start): every call heard is made at once, so the next is heard
against the game as it then stands. ``--playing`` names what the companion's own speaker
played during the file (a built-in sound, ``drum_loop``, ``yarra_mark@12``, or a file), so
that it is taken away from what is heard, as the app does. Prints each call heard with its
time in the file and its confidence; ``--json``: one object a line, ``{"file", "t", "call",
"confidence", "heard"}`` (``call`` in the call log's words; null, with ``ask`` the calls the
table would ask between, or ``refused`` why the rules took none). Exit status: 0, or 2 for a
bad argument or a file that cannot be read (said on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = ("hear calls said aloud in recordings (WAV, FLAC, Ogg) and print them as the table "
        "takes them")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", type=Path, nargs="+", metavar="WAV",
                        help="recordings of the table (16 kHz or any rate, mono or not)")
    parser.add_argument("--game", default="eye-for-an-eye",
                        help="the game (short name); default eye-for-an-eye")
    parser.add_argument("--seats", required=True,
                        help="the seats in order: characters ('Grubic,Riparian,Banksia', by "
                        "name, tribe or id) or PLAYER=CHARACTER ('Ana=Grubic,Ben=Riparian')")
    parser.add_argument("--playing", action="append", default=[], metavar="SOUND[@S]",
                        help="a sound the companion's speaker played during the file, from S "
                        "seconds in (default 0): a built-in sound (drum_loop, yarra_mark, "
                        "one_minute...) or a file; again for more")
    parser.add_argument("--sensitivity", choices=("careful", "normal", "eager"),
                        default="normal", help="how readily a phrase is believed")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--verbose", action="store_true",
                        help="also say why each utterance not taken was not")


def seat_setup(seats: str) -> tuple[list[str], list[str]]:
    """Players and character ids from ``--seats``. Raised when ...: ValueError naming the
    seat that is not a character, or a character named twice."""
    from rules.eye_for_an_eye.characters import characters

    known = characters()
    by_name: dict[str, str] = {}
    for cid, c in known.items():
        for name in (cid, c.short, c.name, c.tribe):
            by_name[name.casefold()] = cid
    players: list[str] = []
    chosen: list[str] = []
    items = [s.strip() for s in seats.split(",")]
    if not all(items):
        raise ValueError(f"--seats {seats!r}: an empty seat; give names separated by commas")
    for item in items:
        player, sep, character = item.partition("=")
        name = (character if sep else player).strip()
        found = by_name.get(name.casefold())
        if found is None:
            raise ValueError(f"--seats: {name!r} is no character (characters: "
                             f"{', '.join(c.short for c in known.values())}; tribes: "
                             f"{', '.join(c.tribe for c in known.values())})")
        cid = found
        if cid in chosen:
            other = items[chosen.index(cid)]
            raise ValueError(f"--seats: {other!r} and {item!r} are both {known[cid].name} "
                             f"({known[cid].tribe} is {known[cid].short}'s tribe)")
        chosen.append(cid)
        players.append(player.strip() if sep else known[cid].short)
    return players, chosen


def run(args: argparse.Namespace) -> int:
    import rules
    from companion.games import plugins
    from companion.settings import VOICE_SENSITIVITY
    from companion.voice.listener import Skipped
    from companion.voice.offline import HeardLine, Playing, hear_file
    from companion.voice.recogniser import Recogniser
    from hardware.errors import HardwareError

    plugin = plugins().get(args.game)
    if plugin is None:
        print(f"companion hear: no game {args.game!r} (games: {', '.join(plugins())})",
              file=sys.stderr)
        return 2
    if plugin.voice is None or plugin.voice.make is None:
        note = plugin.voice.note if plugin.voice is not None else "it listens to no call"
        print(f"companion hear: {note}", file=sys.stderr)
        return 2
    try:
        playing = [Playing.parse(p) for p in args.playing]
        for p in playing:
            p.path()
        if args.game == "eye-for-an-eye":
            players, chosen = seat_setup(args.seats)
            options: dict[str, object] = {"characters": chosen}
            if len(players) > 4:
                half = len(players) // 2
                options.update(mode="alliances", teams=[players[:half], players[half:]])
        else:
            players, options = [s.strip() for s in args.seats.split(",")], {}
        rules.new_game(args.game, players, options)
    except (ValueError, HardwareError) as e:
        print(f"companion hear: {e}", file=sys.stderr)
        return 2
    sensitivity = VOICE_SENSITIVITY[args.sensitivity]
    recogniser = Recogniser(sensitivity)
    status = 0
    for path in args.files:
        game = rules.new_game(args.game, players, options)
        voice = plugin.voice.make(game)
        skipped: list[Skipped] = []
        try:
            lines: list[HeardLine] = hear_file(path, game, voice, playing=playing,
                                               sensitivity=sensitivity, recogniser=recogniser,
                                               skipped=skipped)
        except HardwareError as e:
            print(f"companion hear: {path}: {e}", file=sys.stderr)
            status = 2
            continue
        for line in lines:
            if args.json:
                print(json.dumps(line.to_json()))
            else:
                what = line.call or (f"{line.heard} (who said it? {' / '.join(line.ask)})"
                                     if line.ask else f"{line.heard}: refused: {line.refused}")
                print(f"{path}  {line.t:7.2f} s  {what}  (confidence {line.confidence:.2f})")
        if args.verbose:
            for s in skipped:
                print(f"{path}  {s.start:7.2f}-{s.end:.2f} s  not taken: {s.why}",
                      file=sys.stderr)
        if not lines and not args.json:
            print(f"{path}  no call heard")
    return status
