"""The players read a refused call's reason, taken from the engine's refusal (its call and
reason as fields), never cut out of the message by trying its prefixes as calls (issue 34)."""

from __future__ import annotations

from pathlib import Path

import rules
from companion.games.table import refusal_reason
from companion.journal import Journal
from companion.session import TableSession


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
        session.message = "Undid: Ana: Pass"  # a notice the screen wrote
        assert refusal_reason(session) == "Undid: Ana: Pass"
