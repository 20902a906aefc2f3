"""Reading what the network sends takes time linear in its size, whatever it holds (issue 42).

A report of unterminated escaped quotes (``"\\"\\"\\"...``) once froze the director: the
nesting check's pattern backtracked, 32 KB took 13 s. Now no module that reads the network
uses Python's backtracking ``re``: the nesting is measured with string methods, and every
pattern is RE2 (linear by construction), registered in ``protocol.NETWORK_PATTERNS``. Each
pattern is fuzzed with adversarial strings against Python's ``re`` on short inputs (the same
answers) and run on long ones; the nesting measure is checked against a reference scanner.
A report the director cannot read within its time budget is refused and kept; a report the
director died reading twice is refused unread. No assertion here is on time.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_desks import desk_with_round, good, seated

from companion.tournament import protocol
from companion.tournament.director import Director
from companion.tournament.protocol import (
    MAX_DEPTH,
    NETWORK_PATTERNS,
    ProtocolError,
    Report,
    nesting,
    read_json,
)

TOURNAMENT = Path(protocol.__file__).parent
#: The modules that read what tables, the broker, a page's visitor or a scanned code send.
NETWORK_MODULES = ("protocol.py", "director.py", "director_sessions.py", "table.py", "inbox.py",
                   "join.py", "web.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("name", NETWORK_MODULES)
def test_no_module_that_reads_the_network_uses_a_backtracking_pattern(name: str) -> None:
    found = _imports(TOURNAMENT / name)
    assert "re" not in found, f"{name} imports Python's re (backtracking): use re2"


def test_every_network_pattern_is_re2_and_registered() -> None:
    import re2

    compiled = [v for v in vars(protocol).values() if isinstance(v, re2._Regexp)]
    assert compiled and all(any(v is p for p in NETWORK_PATTERNS.values()) for v in compiled)
    assert all(isinstance(p, re2._Regexp) for p in NETWORK_PATTERNS.values())


def _adversarial(pattern: str | bytes, rng: random.Random, size: int) -> list[str]:
    """Strings meant to make a backtracking engine work hard on ``pattern``: long runs of the
    characters the pattern names, runs that almost match and then fail at the end, escaped
    quotes, whitespace runs, alternations of the pattern's own pieces."""
    text = pattern.decode() if isinstance(pattern, bytes) else pattern
    alphabet = sorted({c for c in text if c.isprintable()} | set('"\\ :-@.[]{}aZ09/'))
    pieces = ['"report_id"', ":", " ", '"', "\\", "a", "-", "@", "[", "::", "table-", "9"]
    out = []
    for c in alphabet:
        out += [c * size, c * size + "\x00", "a" + c * size + "!"]
    for piece in pieces:
        out += [piece * (size // len(piece)), piece * (size // len(piece)) + "\n"]
    out += ['"' + '\\"' * (size // 2), '"report_id"' + " " * size + ':' + " " * size,
            "a" * 80 + "-" * size, "k7m2-3-" + "A-" * (size // 2) + "@" + "1." * (size // 2),
            "".join(rng.choice(alphabet) for _ in range(size))]
    return out


@pytest.mark.parametrize("name", sorted(NETWORK_PATTERNS))
def test_each_network_pattern_answers_as_its_meaning_on_adversarial_strings(
        name: str, request: pytest.FixtureRequest) -> None:
    pattern = NETWORK_PATTERNS[name]
    reference = re.compile(pattern.pattern)
    rng = random.Random(name)
    # Short: RE2 gives Python's answers (what the pattern means); Python stays quick here.
    for text in _adversarial(pattern.pattern, rng, 60):
        subject: Any = text.encode() if isinstance(pattern.pattern, bytes) else text
        for how in ("fullmatch", "search"):
            ours = getattr(pattern, how)(subject)
            theirs = getattr(reference, how)(subject)
            assert (ours is None) == (theirs is None), (name, how, text[:80])
            if ours is not None and theirs is not None:
                assert ours.group(0) == theirs.group(0), (name, how, text[:80])
    # Long: the sizes a message may have (a report is at most 1 MiB). RE2 takes them in
    # linear time; here they must only be answered (the long fault mode reports the times).
    size = (1 << 20) if request.config.getoption("--long") else 1 << 16
    for text in _adversarial(pattern.pattern, rng, size):
        subject = text.encode() if isinstance(pattern.pattern, bytes) else text
        pattern.search(subject)
        pattern.fullmatch(subject)


def _reference_depth(text: str) -> int:
    """JSON nesting by walking it one character at a time (what :func:`nesting` must say)."""
    depth = most = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            most = max(most, depth)
        elif c in "]}":
            depth -= 1
    return most


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(
    alphabet=st.sampled_from('ab"\\[]{}é\n ')),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet=st.sampled_from('k"\\[]{'), max_size=4), inner, max_size=4),
    max_leaves=20))
def test_the_nesting_measure_agrees_with_a_walk_through_the_text(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert nesting(text.encode()) == _reference_depth(text)


@pytest.mark.parametrize("payload", [
    b'"' + b'\\"' * 20_000,  # the report that froze the director (40 KB)
    b'{"a": "' + b'\\\\' * 30_000 + b'\\"' * 10_000,
    b'[' * 8 + b'"' + b'\\"' * 30_000 + b']' * 8,
    b'{"report_id": "x", "game_file": "' + b'\\"[' * 20_000 + b'"}',
])
def test_reports_built_to_make_the_reader_backtrack_are_read_and_answered(
        payload: bytes) -> None:
    with pytest.raises(ProtocolError):
        Report.from_payload(payload)


def test_half_a_surrogate_pair_is_refused_naming_the_field() -> None:
    with pytest.raises(ProtocolError, match=r"'game_file' holds half a surrogate pair"):
        read_json(b'{"game_file": "a\\ud800b"}', "report")
    with pytest.raises(ProtocolError, match=r"'placings\[0\]\[1\]' holds half a surrogate"):
        read_json(b'{"placings": [["Ana", "\\udfff"]]}', "report")
    # a whole pair is text: the die, as JSON writes it
    assert read_json(b'{"a": "\\ud83c\\udfb2"}', "report") == {"a": "\U0001f3b2"}
    assert read_json('{"a": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}",
                     "report")["a"] == [[[[[[[]]]]]]]


def test_a_report_not_read_within_the_time_allowed_is_refused_and_kept(
        tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused", read_seconds=-1.0)  # always late
    ack = director.handle_report("table-1", good(desk, 1, seated(desk, 1), "late-1"))
    assert ack is not None and (ack.report_id, ack.status) == ("late-1", "rejected")
    assert "not read within the time allowed" in ack.text
    count, [(_, source, reason, _)] = desk.store.refused("tt01", 1)
    assert (count, source) == (1, "table-1") and "time allowed" in reason
    assert desk.tournament.rounds[0].results == {}
    # in time, the same report counts
    director.read_seconds = 600.0
    ack = director.handle_report("table-1", good(desk, 1, seated(desk, 1), "late-1"))
    assert ack is not None and ack.status == "recorded"


def test_a_report_the_director_died_reading_twice_is_refused_unread(tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    payload = good(desk, 1, seated(desk, 1), "poison-1")
    digest = hashlib.sha256(payload).hexdigest()
    folder = tmp_path / "t"
    folder.mkdir()
    # A director killed while reading it once (a power cut, kill -9): it is read again.
    (folder / "reading").write_text(f"table-1 {digest} 1\n")
    other = good(desk, 1, seated(desk, 1), "other-1")
    director = Director(desk, "127.0.0.1", 1, "unused", folder=folder)
    ack = director.handle_report("table-1", other)  # another report first: read as ever
    assert ack is not None and ack.status == "recorded"
    ack = director.handle_report("table-1", payload)
    assert ack is not None and ack.status == "duplicate"  # read: same result as other-1
    assert not (folder / "reading").exists()
    # Killed while reading it twice: the third time it is refused unread, and kept.
    (folder / "reading").write_text(f"table-1 {digest} 2\n")
    director = Director(desk, "127.0.0.1", 1, "unused", folder=folder)
    ack = director.handle_report("table-1", payload)
    assert ack is not None and (ack.report_id, ack.status) == ("poison-1", "rejected")
    assert "stopped 2 times while reading this report" in ack.text
    count, [(_, _, reason, size)] = desk.store.refused("tt01", 1)
    assert count == 1 and "refused unread" in reason and size == len(payload)
    assert not (folder / "reading").exists()
    ack = director.handle_report("table-1", payload)  # and then read as any other
    assert ack is not None and ack.status == "duplicate"
