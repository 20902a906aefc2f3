"""Names as people see them (issue 42, item 7): written one way (NFC), nothing in them that
cannot be seen, and a warning for a name that looks like another (a Cyrillic "Аna" beside
"Ana"): at the start screen's checks, for a tournament's entrants, and in imported files.
(The start screen itself, by touch: tests/app/test_app_start_names.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tournament_desks import desk_with_round

from companion import startcheck
from companion.cli import main
from companion.history import History, importing
from companion.names import disguised, lookalike, skeleton
from rules.names import invisible, normal
from rules.tournament import TournamentError

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC_ANA = "\u0410na"  # А (Cyrillic) n a
HIDDEN = {
    "\u3164": "U+3164 HANGUL FILLER, which shows as nothing",
    "\u200b": "U+200B ZERO WIDTH SPACE, which shows as nothing",
    "\u202e": "U+202E RIGHT-TO-LEFT OVERRIDE, which turns the text around it",
    "\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE, which turns the text around it",
    "\u00ad": "U+00AD SOFT HYPHEN, which shows as nothing",
    "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE, which shows as nothing",
    "\u2800": "U+2800 BRAILLE PATTERN BLANK, which shows as nothing",
    "\U000e0041": "U+E0041 TAG LATIN CAPITAL LETTER A, which shows as nothing",
}


@pytest.mark.parametrize("char", sorted(HIDDEN))
def test_what_cannot_be_seen_is_named(char: str) -> None:
    assert invisible(f"B{char}en") == HIDDEN[char]
    assert invisible(char) == HIDDEN[char]


def test_names_in_any_script_are_seen_and_written_one_way() -> None:
    for name in ("Ana", "Zoë O'Neil", "Дмитрий", "山田 はな", "Nguyễn", "أحمد", "José"):
        assert invisible(name) == "", name
    assert normal("Jose\u0301") == "José" and len(normal("Jose\u0301")) == 4
    assert invisible("A" + "\u0301" * 5) == "more than 4 accents on one letter"


def test_names_that_look_alike_are_found() -> None:
    assert skeleton(CYRILLIC_ANA) == skeleton("Ana") == skeleton("\uff21na")
    assert lookalike(CYRILLIC_ANA, ["Ben", "Ana"]) == "Ana"
    assert lookalike("Ana", ["ana", "Ben"]) is None  # the same name, another case
    assert lookalike("Zoë", ["Zoe"]) is None  # an accent is seen
    assert lookalike("Дмитрий", ["Dmitri"]) is None
    assert disguised(CYRILLIC_ANA) == ["CYRILLIC", "LATIN"]
    assert disguised("Дмитрий") == [] and disguised("山田はな") == []


def test_the_start_screens_checks_refuse_the_invisible_and_ask_about_look_alikes() -> None:
    said = startcheck.name_problem(["Ana", "B\u3164en"])
    assert said is not None and "player 2 holds U+3164 HANGUL FILLER" in said
    said = startcheck.name_problem(["A\u200bna", "Ben"])
    assert said is not None and "ZERO WIDTH SPACE" in said
    # typed with a combining accent or not: one name, so two seats cannot both have it
    said = startcheck.name_problem(["Jose\u0301", "José"])
    assert said == ("Players 1 and 2 are both called José: give each a different name (an "
                    "initial will do).")
    assert startcheck.tidy("  Jose\u0301  ") == "José"
    warned = startcheck.name_warning(["Ana", CYRILLIC_ANA])
    assert warned is not None and f"Player 2's name {CYRILLIC_ANA!r} looks like 'Ana'" in \
        warned and "its 1st letter, А, is Cyrillic" in warned
    warned = startcheck.name_warning(["Ben", CYRILLIC_ANA], known=["Ana", "Cy"])
    assert warned is not None and "looks like 'Ana'" in warned
    assert startcheck.name_warning(["Ana", "Ben", "Дмитрий"], known=["ana"]) is None


def test_a_tournaments_entrants_are_checked_and_warned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    desk = desk_with_round(tmp_path, rounds=3, draw=False)
    with pytest.raises(TournamentError, match=r"holds U\+202E RIGHT-TO-LEFT OVERRIDE"):
        desk.add_entrant("Eve\u202e")
    with pytest.raises(TournamentError, match="HANGUL FILLER"):
        desk.add_entrant("\u3164")
    assert desk.add_entrant("Jose\u0301") == ""
    assert "José" in desk.tournament.active()
    said = desk.add_entrant("Р1")  # a Cyrillic Р and a 1: "P1" to the eye
    assert "'Р1' looks like 'P1'" in said
    desk.store.close()
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    assert main(["tournament", "add", "P\u0410"]) == 0  # "PA", its A Cyrillic: no look-alike
    assert main(["tournament", "add", "\u0420\u0031\u0031"]) == 0  # "Р11"
    assert main(["tournament", "add", "Zed\u200b"]) == 1
    out, err = capsys.readouterr()
    assert "added PА" in out and "ZERO WIDTH SPACE" in err
    assert "mixes Cyrillic and Latin letters" in err


def test_imported_names_are_checked_written_one_way_and_warned(tmp_path: Path) -> None:
    example = (ROOT / "examples" / "dice-forge.game").read_text(encoding="utf-8")
    hidden = tmp_path / "hidden.game"
    hidden.write_text(example.replace("Ana", "A\u3164na"), encoding="utf-8")
    decomposed = tmp_path / "decomposed.game"
    decomposed.write_text(example.replace("Ana", "Jose\u0301"), encoding="utf-8")
    twin = tmp_path / "twin.game"
    twin.write_text(example.replace("Ana", CYRILLIC_ANA).replace("\"Ben\"", "\"Bob\"")
                    .replace("Ben:", "Bob:"), encoding="utf-8")
    with History(tmp_path / "journal.sqlite3") as history:
        importing.import_game_text(history, example, "ana.game")
        results = importing.import_paths(history, [hidden, decomposed, twin])
        by_file = {Path(r.source).name: r for r in results}
        assert by_file["hidden.game"].game_id is None
        assert "'A\u3164na' holds U+3164 HANGUL FILLER" in by_file["hidden.game"].message
        assert by_file["decomposed.game"].game_id is not None
        assert "José" in history.players() and "Jose\u0301" not in history.players()
        assert by_file["twin.game"].game_id is not None
        assert f"warning: the player name {CYRILLIC_ANA!r} looks like 'Ana'" in \
            by_file["twin.game"].message


def test_an_import_reads_with_the_data_folder_free_and_says_how_far_it_is(
        tmp_path: Path) -> None:
    """Issue 42: a big import held the data folder's lock for all its minutes of replaying.
    Here another companion holds the lock all the while the files are read; the import says
    what it read, waits (``--wait``), and writes once the folder is free."""
    import selectors

    from history_night import PER_GAME, UNFINISHED, night_journal

    from companion.store import LOCK_NAME, hold_lock_file

    source = night_journal(tmp_path)
    archive = tmp_path / "games.zip"
    assert main(["history", "export", "zip", str(archive), "--journal", str(source)]) == 0
    total = 5 * PER_GAME + UNFINISHED
    target = tmp_path / "other" / "journal.sqlite3"
    target.parent.mkdir()
    held = hold_lock_file(target.parent / LOCK_NAME)  # another companion, here
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "history", "import", str(archive), "--journal",
         str(target), "--wait", "600"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    heard = b""  # read as it comes, unbuffered (a buffered readline could sit on lines)
    assert child.stderr is not None
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(child.stderr, selectors.EVENT_READ)
            while b"waiting up to 600 s" not in heard:
                assert sel.select(timeout=600), f"the import said nothing more: {heard!r}"
                chunk = os.read(child.stderr.fileno(), 65536)
                assert chunk, f"the import ended ({child.wait(60)}); it said {heard!r}"
                heard += chunk
    finally:
        os.close(held)  # the other companion closes
    said = heard.decode().splitlines()
    out_bytes, rest = child.communicate(timeout=600)
    out, err = out_bytes.decode(), (heard + rest).decode()
    assert child.returncode == 0, err
    assert any(s.startswith("Read 1 game file(s)") for s in said)
    assert f"Read {total} game file(s) in" in " ".join(said)
    assert f"Another companion (process {os.getpid()})" in next(
        line for line in said if "waiting up to 600 s" in line)
    assert f"{total} of {total} game file(s) added" in out
    with History(target) as history:
        assert history.count() == total
