"""The narrow host a game gets (:class:`companion.contract.Host`), not the app.

A game's screens are given this, never the app object: what the table has that a game may
use (its settings, camera, clock, sounds, screens to show, undo and redo, leaving and
restarting, the roll log) and nothing else. Each member hands the question to the app's own
answer, so there is one behaviour; but a game cannot reach the journal, the session list, the
screen manager or any other part of the app, even by a name typing does not check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.contract import CameraView, Host, TableGame

if TYPE_CHECKING:
    from calibration.zones import Zone
    from companion.settings import Settings
    from rules import Ending
    from vision import Profile, Reading


class GameHost:
    """A :class:`~companion.contract.Host` over ``app``'s answers, and only those."""

    __slots__ = ("_app",)

    def __init__(self, app: Host) -> None:
        self._app = app

    @property
    def settings(self) -> Settings:
        return self._app.settings

    @property
    def camera(self) -> CameraView | None:
        return self._app.camera

    @property
    def board_zones(self) -> tuple[Zone, ...]:
        return self._app.board_zones

    def fs(self, size: float) -> float:
        return self._app.fs(size)

    def now(self) -> float:
        return self._app.now()

    def show(self, name: str) -> None:
        self._app.show(name)

    def back(self) -> None:
        self._app.back()

    def undo(self) -> None:
        self._app.undo()

    def redo(self) -> None:
        self._app.redo()

    def end_game(self, ending: Ending | None = None) -> str | None:
        return self._app.end_game(ending)

    def play_link(self) -> str | None:
        return self._app.play_link()

    def restart(self, options: Mapping[str, Any]) -> TableGame | None:
        return self._app.restart(options)

    def mute(self, on: bool) -> None:
        self._app.mute(on)

    def muted(self) -> bool:
        return self._app.muted()

    def sound(self, name: str) -> bool:
        return self._app.sound(name)

    def vision_profile(self) -> Profile | None:
        return self._app.vision_profile()

    def took_roll(self, reading: Reading) -> None:
        self._app.took_roll(reading)

    def correct_roll(self, reading: Reading, corrections: Mapping[int, str]) -> None:
        self._app.correct_roll(reading, corrections)
