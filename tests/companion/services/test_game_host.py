"""A game gets a narrow host (issue 43, item 4): :class:`companion.services.gamehost.GameHost`
answers exactly what :class:`companion.contract.Host` declares, each by the app's own answer,
and holds nothing else a game could reach."""

from __future__ import annotations

from typing import Any

import pytest

from companion.contract import Host
from companion.services.gamehost import GameHost


def public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_the_game_host_has_the_hosts_members_and_no_other() -> None:
    assert public(GameHost) == public(Host)
    assert "fs" in public(GameHost) and "correct_roll" in public(GameHost)


class Answers:
    """Stands in for the app: every member answers with its own name and arguments."""

    def __getattr__(self, name: str) -> Any:
        if name in ("settings", "camera", "board_zones"):
            return f"{name}!"
        return lambda *args: (name, args)


def test_each_member_is_the_apps_own_answer() -> None:
    host = GameHost(Answers())  # type: ignore[arg-type]
    assert (host.settings, host.camera, host.board_zones) == ("settings!", "camera!",
                                                              "board_zones!")
    assert host.fs(12) == ("fs", (12,))  # type: ignore[comparison-overlap]
    assert host.restart({"a": 1}) == ("restart", ({"a": 1},))  # type: ignore[comparison-overlap]
    assert host.end_game(None) == ("end_game", (None,))  # type: ignore[comparison-overlap]


def test_nothing_else_of_the_app_is_reached() -> None:
    host = GameHost(Answers())  # type: ignore[arg-type]
    assert not hasattr(host, "journal") and not hasattr(host, "session")
    with pytest.raises(AttributeError):  # nor can a game hang its own state on it
        host.sessions = 1  # type: ignore[attr-defined]
