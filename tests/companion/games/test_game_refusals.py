"""The players read a refused call's reason, taken from the engine's refusal (its call and
reason as fields), never cut out of the message by trying its prefixes as calls (issue 34)."""

from __future__ import annotations

from pathlib import Path

import rules
from companion.games.table import refusal_reason
from companion.journal import Journal
from companion.session import Note, Refusal, TableSession


def test_a_refused_call_reads_as_its_reason_and_a_notice_reads_whole(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        setup = rules.Setup("dice-forge", ("Ana", "Ben"), {}, 1)
        session = TableSession.new(journal, setup, "test")
        assert session.try_call("Ben: Pass") is None
        refused = session.refused
        assert refused is not None and refused.call == session.game.parse("Ben: Pass")
        assert session.message == f"Ben: Pass: {refused.reason}"
        assert refusal_reason(session) == refused.reason
        session.refuse("nothing to undo")  # not the engine's: said whole
        assert session.refused is None
        assert refusal_reason(session) == "nothing to undo"
        session.note("Undid: Ana: Pass")  # a notice the screen wrote
        assert refusal_reason(session) == "Undid: Ana: Pass"
        assert session.notice == Note("Undid: Ana: Pass") and session.refused is None
        session.clear_notice()
        assert session.notice is None and session.message == ""


def test_a_notice_is_one_type_set_in_one_place() -> None:
    """Issue 43: a refusal and a note are values (Refusal | Note) the session alone sets;
    its message and refused are read from them, never written beside them."""
    import inspect

    assert isinstance(inspect.getattr_static(TableSession, "message"), property)
    assert inspect.getattr_static(TableSession, "message").fset is None
    assert inspect.getattr_static(TableSession, "refused").fset is None
    refusal = Refusal("nothing to undo")
    assert refusal.illegal is None and Note("x") != Refusal("x")
