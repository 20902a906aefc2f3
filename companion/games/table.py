"""The table of a game played on one screen: the screen base class and its TableGame.

Four of the five games (all but Eye for an Eye's arena and between-rounds pair) show one table
screen. Such a screen subclasses :class:`TableScreen`; :class:`ScreenTable` is the
:class:`~companion.contract.TableGame` the app drives, passing each change of the session,
tick, settled roll and button press to the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.screenmanager import Screen

from companion import theme
from companion.contract import ButtonUse, GameModel, Host, Light
from companion.games.refusal import refusal_reason
from companion.session import Change, SessionChange, TableSession
from hardware.audio.clock import CueName
from hardware.buttons import ButtonEvent
from rules import Event
from vision import Reading

#: Changes of the session after which the screen redraws.
REDRAW = frozenset({Change.CALL, Change.UNDO, Change.REDO, Change.REFUSED, Change.BUILDING})


def lines_label(host: Host, size: float, **kwargs: Any) -> Any:
    """A text of several lines centred in its box, wrapped at the box's width, none of them
    ever dropped: with ``text_size`` fixing the height and ``valign: middle`` (TLabel's), Kivy
    drops the wrapped tail of a text of several paragraphs even where it would fit, and no
    layout check sees it. Here the height is left free (the label centres its text) and a
    text too tall for the box shows as cut."""
    from companion.widgets import w

    kwargs.setdefault("color", theme.TEXT)
    kwargs.setdefault("halign", "center")
    label = w("FitLabel", font_size=host.fs(size), shorten=False, **kwargs)
    label.bind(width=lambda lab, v: setattr(lab, "text_size", (v, None)))
    label.text_size = (label.width, None)
    return label


class TableScreen(Screen):
    """A game's one table screen: draws its model's view after every change the model has
    read."""

    #: The game's model (set by the screen before it first draws).
    model: GameModel[Any]

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host
        self.session = session
        self._acting = 0  # touches being handled (act): a change told meanwhile waits

    def act(self, action: Callable[[], object]) -> None:
        """A touch: the model acts, then the screen draws, once, after the model has
        finished. A call the model makes meanwhile is read by the model at once (its host
        hands it the change) but drawn only now, never halfway through the model's work."""
        self._acting += 1
        try:
            action()
        finally:
            self._acting -= 1
            if not self._acting:  # drawn as it stands, also when the action raised
                self.refresh()

    def changed(self, events: Sequence[Event] = ()) -> None:
        """The model has read a change of the session (its host's): drawn now, or once the
        touch being handled is done (:meth:`act`)."""
        if not self._acting:
            self.refresh(events)

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Redraw after a call, an undo, a redo or a refusal."""
        raise NotImplementedError

    def wants_camera(self) -> bool:
        """True while the screen reads dice from the camera."""
        return False

    def on_roll(self, reading: Reading) -> None:
        """The camera saw a roll settle (only rolls that may count arrive)."""

    def on_settled(self, reading: Reading) -> None:
        """The camera saw the dice lie still after any change (rolls and handling)."""

    def tick(self) -> None:
        """The app's clock ticked."""

    def on_cue(self, name: CueName) -> None:
        """A moment of the round clock ("start", "one_minute", "ten_seconds", "end")."""

    def say(self, text: str) -> None:
        """Show a message to the players (where the screen shows the engine's refusals)."""
        self.session.note(text)
        self.refresh()

    def close(self) -> None:
        """The game leaves the table."""


class ScreenTable:
    """A one-screen game at the table (a :class:`companion.contract.TableGame`)."""

    def __init__(self, screen: TableScreen, buttons: ButtonUse) -> None:
        self.screen = screen
        self.buttons = buttons
        screen.refresh()

    @property
    def screens(self) -> Sequence[Screen]:
        return [self.screen]

    def on_session(self, change: SessionChange) -> None:
        """The model reads the change whole, then the screen draws from it."""
        self.screen.model.on_session(change)
        if change.cue is not None:
            self.screen.on_cue(change.cue.name)
        elif change.kind in REDRAW:
            self.screen.changed(change.events)

    def on_tick(self) -> None:
        self.screen.tick()

    def on_roll(self, reading: Reading) -> None:
        self.screen.on_roll(reading)

    def on_settled(self, reading: Reading) -> None:
        self.screen.on_settled(reading)

    def on_button(self, event: ButtonEvent, seats: Sequence[str]) -> None:
        """The game takes no button: the players are told so on its screen."""
        self.say(self.buttons.note)

    def say(self, text: str) -> None:
        self.screen.say(text)

    def wants_camera(self) -> bool:
        return self.screen.wants_camera()

    def lights(self) -> Sequence[Light]:
        return ()

    def close(self) -> None:
        self.screen.close()


__all__ = ["REDRAW", "ScreenTable", "TableScreen", "lines_label", "refusal_reason"]
