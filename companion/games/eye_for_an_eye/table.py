"""Eye for an Eye as a table game: its screens, sounds, buttons, board camera and seat lights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.screenmanager import Screen

from companion.contract import Host, Light
from companion.games.eye_for_an_eye.board import BoardWatcher, apply_board
from companion.games.eye_for_an_eye.buttons import Press, counting_feedback
from companion.games.eye_for_an_eye.calls import ArenaCalls
from companion.games.eye_for_an_eye.model import EyeForAnEyeModel
from companion.games.eye_for_an_eye.screen import ArenaScreen, BetweenScreen
from companion.session import SessionChange, TableSession
from companion.voice.phrases import HeardCall
from hardware.audio import CUE_SOUNDS
from hardware.buttons import ButtonEvent
from rules import RulesError
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.events import EventKind
from vision import Reading

#: What happened in the arena -> an effect.
#: The sound each kind of event plays (typed: a kind the engine does not make is an error).
EVENT_SOUNDS: dict[EventKind, str] = {"knockout": "knockout"}


class EyeTable:
    """One match of Eye for an Eye at the table (a :class:`companion.contract.TableGame`)."""

    def __init__(self, host: Host, session: TableSession[Any]) -> None:
        self.host = host
        self.session: TableSession[EyeForAnEye] = session.typed(EyeForAnEye)
        self.calls = ArenaCalls(self.session, parry_seconds=host.settings.parry_seconds,
                                now=host.now)
        self.model = EyeForAnEyeModel(self.calls)
        self.arena = ArenaScreen(host, self.model)
        self.between = BetweenScreen(host, self.model)
        #: The players' boards filled by the camera (allocation tracking and board zones).
        self.board: BoardWatcher | None = None
        if self.game.options.track_allocation and host.board_zones:
            self.board = BoardWatcher(host.board_zones)
            self.board.round = self.game.state.round_number
        self.arena.refresh()
        self.between.refresh()

    @property
    def game(self) -> EyeForAnEye:
        return self.session.game

    @property
    def screens(self) -> Sequence[Screen]:
        playing = self.game.state.phase == "playing"
        return [self.arena, self.between] if playing else [self.between, self.arena]

    # -- the session -------------------------------------------------------------------------

    def on_session(self, change: SessionChange) -> None:
        events = change.events
        self.model.on_session(change)  # a refusal shows white on red in the message box
        if change.cue is not None:
            sound = CUE_SOUNDS.get(change.cue.name)
            if sound is not None:
                self.host.sound(sound)
            return
        for e in events:
            for kind, sound in EVENT_SOUNDS.items():
                if e.kind == kind:
                    self.host.sound(sound)
        if change.game_changed:
            if self.game.state.phase != "playing":
                self.between.refresh(events)
                self.arena.refresh()  # over: no clock to run, no call to ask for
                self.host.show("between")
                return
            if self.between.manager is not None and self.between.manager.current == "between":
                self.host.show("arena")
        self.arena.refresh()

    def on_tick(self) -> None:
        self.calls.tick()
        self.arena.refresh_clock()

    # -- the camera --------------------------------------------------------------------------

    def wants_camera(self) -> bool:
        return self.board is not None

    def on_roll(self, reading: Reading) -> None:
        """Rolls are the players' own in the arena (read off the boards, not the tray)."""

    def on_settled(self, reading: Reading) -> None:
        """Dice seen on the players' boards: their changes become Allocate/Recover calls
        (moving a die onto a board is handling, not a roll)."""
        board = self.board
        if board is None or self.game.state.phase != "playing":
            return
        if board.round != self.game.state.round_number:
            board.reset()
            board.round = self.game.state.round_number
        lines = apply_board(self.session, board, reading.dice)
        refused = [line.text for line in lines if line.refused]
        if refused:
            self.model.say(refused[-1], refused=True)
            self.arena.refresh()

    # -- the buttons -------------------------------------------------------------------------

    def on_button(self, event: ButtonEvent, seats: Sequence[str]) -> None:
        counting = counting_feedback(event, seats)
        if counting is not None:  # a press still being counted: show it at once
            self.arena.show_counting(*counting)
            return
        try:
            press = Press.from_hardware(event, seats)
            if press is not None:
                self.calls.press(press)
        except RulesError as e:
            self.say(str(e))

    def on_heard(self, heard: HeardCall) -> None:
        """A call heard aloud (a :class:`companion.contract.HearsCalls`): shown at once."""
        self.calls.hear(heard)
        self.arena.refresh()

    def lights(self) -> Sequence[Light]:
        """Lit while that seat may parry, blinking when knocked out."""
        return self.model.lights()

    def say(self, text: str) -> None:
        """A notice for the players ("Undid: ..."), in the arena's message box."""
        self.model.say(text)
        self.arena.refresh()

    def close(self) -> None:
        self.arena.on_leave()


__all__ = ["EyeTable"]
