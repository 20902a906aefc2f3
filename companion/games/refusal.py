"""A refused call's reason without the call itself (no Kivy: the games' models use it)."""

from __future__ import annotations

from typing import Any

from companion.session import Refusal, TableSession


def refusal_reason(session: TableSession[Any]) -> str:
    """The session's message, a refused call's without the call itself, which the players just
    made: the engine's refusal of ``Ana: Bank`` reads ``"Ana's first banked turn must be worth
    at least 1000; this turn has 50"``. Any other message (a notice, the journal's refusal)
    is returned whole."""
    notice = session.notice
    if isinstance(notice, Refusal) and notice.illegal is not None \
            and notice.illegal.call is not None and str(notice.illegal) == notice.reason:
        return notice.illegal.reason
    return session.message


__all__ = ["refusal_reason"]
