"""A table screen draws once a touch is done (companion.games.table.TableScreen.act): a change
the session tells meanwhile waits for the touch's end, and the screen is drawn then, also when
the touch's action raised."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rules import Event


def a_screen() -> Any:
    from companion.games.table import TableScreen

    class Counted(TableScreen):
        drawn = 0

        def refresh(self, events: Sequence[Event] = ()) -> None:
            self.drawn += 1

    return Counted(host=None, session=None)  # type: ignore[arg-type]  # neither is asked


def test_a_change_told_during_a_touch_is_drawn_once_after_it() -> None:
    screen = a_screen()

    def touch() -> None:
        screen.changed()  # the model made a call: the session told its change
        screen.changed()
        assert screen.drawn == 0  # not in the middle of the model's work
        screen.act(lambda: None)  # a nested touch draws nothing either
        assert screen.drawn == 0

    screen.act(touch)
    assert screen.drawn == 1
    screen.changed()  # no touch in hand: drawn at once
    assert screen.drawn == 2


def test_a_touch_that_raises_still_leaves_the_screen_drawn() -> None:
    screen = a_screen()

    def touch() -> None:
        screen.changed()
        raise RuntimeError("the model failed after its call")

    with pytest.raises(RuntimeError, match="failed after its call"):
        screen.act(touch)
    assert screen.drawn == 1
    screen.act(lambda: None)  # and the next touch is not held back
    assert screen.drawn == 2
