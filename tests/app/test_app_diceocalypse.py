"""A whole game of Dice-ocalypse through the real app, by touch and by the camera.

Three players, target 2,000 chosen on the start screen (Battle Zone at 1,000): the roll for
first turn, a keep and bank, the Battle Zone (lose a turn, doubled next turn), a bust that earns
the Zombie die, the Zombie die rolled, Double or Nothing played from the card panel, the
dice-ocalypse with the last turns, hot dice, a diced player and the tie-break roll. Rolls are
tapped in, or read through the real pipeline: synthetic frames with known dice
(vision.synthetic) from the app's frame provider, read in the screen's camera thread by
vision.read_dice, settled by vision.RollTracker, turned into the call by the adapter. A doubtful
reading (a stand-in die of low confidence) is confirmed by touch. Screenshots go to
$DICEOCALYPSE_SHOTS when set.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in
from table_tours import camera

pytestmark = pytest.mark.app




def row(values: tuple[int, ...]) -> list[Any]:
    """Dice at rest in one row across the tray."""
    from vision.synthetic import SynthDie

    return [SynthDie((60.0 + 100.0 * i, 240.0), 52.0, angle=9.0 * i, value=v)
            for i, v in enumerate(values)]


def test_a_game_of_diceocalypse(app_dirs: Path) -> None:
    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.services.feed import CameraFeed
    from companion.services.standin import ThrownDice
    from rules import replay

    tray = ThrownDice(fps=10.0, background_bgr=(60, 110, 50))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       camera=CameraFeed("test tray", fps=30.0,
                                         open_source=lambda spec: tray))
    shots = Path(os.environ.get("DICEOCALYPSE_SHOTS", str(app_dirs / "shots")))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(3)
        start.choose("target", 2000)  # a short game
        assert start.option_words("target") == "2,000"
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-dice-ocalypse", start.message.text
        scr = app.game_screen
        s = app.session
        assert s.game.options.target == 2000
        assert not hasattr(scr, "target_spin")  # no options on the table screen
        assert s.game.options.battle_zone_at == 1000
        assert [g.id for g in app.journal.unfinished()] == [s.game_id]

        def screen() -> Any:
            return app.game_screen

        def enter(*values: int) -> Generator[int, None, None]:
            for v in values:
                d.tap(screen().number_buttons[v - 1])
                yield 1
            d.tap(screen().primary)
            yield 2

        def card(player: str, text: str, shot: str = "") -> Generator[int, None, None]:
            """Open the Cards & dice dialog, choose the player's tab, tap their call."""
            if not screen().cards_open:
                d.tap(screen().cards_button)
                yield 1
            tab = [b for b in screen().card_tabs.children if b.text == player]
            assert tab, [b.text for b in screen().card_tabs.children]
            d.tap(tab[0])
            yield 1
            found = [b for b in screen().card_grid.children if b.text == text]
            assert found, [b.text for b in screen().card_grid.children]
            if shot:
                d.screenshot(shots / shot)
            d.tap(found[0])
            yield 2

        def roll_in_tray(*values: int) -> Generator[int, None, None]:
            """Dice rolled into the tray: wait (in camera frames) until the screen has made
            the call from the camera's reading, then pick the dice up again."""
            before = len(s.game.history)
            tray.throw(row(values))  # thrown in: they tumble, then settle
            start = tray.reads
            while len(s.game.history) == before and tray.reads < start + 60:
                yield 1
            tray.clear()
            assert len(s.game.history) > before, f"the camera never called {values}"
            start = tray.reads
            while tray.reads < start + 3:  # the empty tray seen: the next roll is new
                yield 1

        def calls() -> list[str]:
            return [e.call for e in s.game.history]

        # A real camera's rolls count: it reads from the start; the players can switch it off
        # (the app then stops the camera for the game) and on again.
        assert scr.camera_on and scr.camera_button.text == "Camera on"
        d.tap(scr.camera_button)
        yield 1
        assert not scr.camera_on and scr.camera_button.text == "Camera off"
        for _ in range(60):
            if "game" not in app.camera.wanted:
                break
            yield 1
        assert "game" not in app.camera.wanted
        d.tap(scr.camera_button)
        for _ in range(60):
            if app.camera.running and "game" in app.camera.wanted:
                break
            yield 1
        assert scr.camera_on and app.camera.running and "game" in app.camera.wanted
        # Who goes first: one die each, tapped in.
        assert "Who goes first" in scr.status.text
        assert scr.info.text == "Ana rolls 1 die"
        d.screenshot(shots / "diceocalypse-1-first-roll.png")
        yield from enter(6)
        assert scr.info.text == "Ben rolls 1 die"
        yield from enter(2)
        yield from enter(1)
        assert calls() == ["Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1"]
        assert scr.status.text == "Ana's turn"
        # Ana's roll, read by the camera: the scoring dice light up, the best keep is chosen.
        yield from roll_in_tray(1, 1, 1, 5, 5, 2)
        assert calls()[-1] == "Ana: Roll 1 1 1 5 5 2"
        assert [b.text for b in scr.dice] == ["1", "1", "1", "5", "5", "2"]
        assert scr.model.chosen == [0, 1, 2, 3, 4]
        assert "Keep 1 1 1 5 5 = 1,100 -> 1,100 this turn" in scr.hint.text
        d.screenshot(shots / "diceocalypse-2-keep.png")
        # Tapping a die changes the keep; a die that does not score cannot be kept.
        d.tap(scr.dice[5])
        yield 1
        assert scr.primary.disabled and "Tap scoring dice" not in scr.hint.text
        d.tap(scr.dice[5])
        yield 1
        d.tap(scr.primary)  # Keep & bank
        yield 2
        assert calls()[-2:] == ["Ana: Keep 1 1 1 5 5", "Ana: Bank"]
        assert scr.rows["Ana"].score.text == "1,100"
        assert "Battle Zone (Ana): everyone rolls 2 dice" in scr.status.text
        d.screenshot(shots / "diceocalypse-3-battle-zone.png")
        # Battle Zone: everyone rolls two; Cy's row is tapped to roll first.
        d.tap(scr.rows["Cy"].button)
        yield 1
        assert scr.info.text == "Cy rolls 2 dice"
        yield from enter(4, 4)
        yield from enter(2, 4)   # Ana
        yield from enter(1, 3)   # Ben: a one, loses the next turn
        assert calls()[-3:] == ["Cy: Roll 4 4", "Ana: Roll 2 4", "Ben: Roll 1 3"]
        assert scr.status.text == "Cy's turn"  # Ben's turn was lost
        assert "next x2" in scr.rows["Cy"].button.text
        # Cy busts on the first roll: the Zombie die.
        yield from enter(2, 3, 4, 6, 6, 2)
        assert "busts" in scr.hint.text and "Zombie" in scr.rows["Cy"].button.text
        assert scr.status.text == "Ana's turn"
        # Cy rolls the Zombie die from the card panel before Ana's turn.
        yield from card("Cy", "Roll the Zombie die")
        assert not scr.cards_open
        assert scr.info.text == "Cy rolls the Zombie die"
        yield from enter(1)
        assert calls()[-1] == "Cy: Zombie 1"
        assert scr.info.text.startswith("Ana rolls 5 dice")
        # Ana's roll comes from the camera, one die unsure: confirmed by tapping it twice.
        assert scr.on_reading(camera(5, 5, 5, 1, 2, unsure=(3,))) is None
        yield 1
        assert [b.text for b in scr.dice[:5]] == ["5", "5", "5", "1?", "2"]
        assert scr.primary.disabled
        d.screenshot(shots / "diceocalypse-4-camera-unsure.png")
        d.tap(scr.dice[3])
        yield 1
        d.tap(scr.dice[3])
        yield 1
        assert scr.dice[3].text == "1" and not scr.primary.disabled
        d.tap(scr.primary)
        yield 2
        assert calls()[-1] == "Ana: Roll 5 5 5 1 2"
        # Double or Nothing from the card panel.
        yield from card("Ana", "Double or Nothing", "diceocalypse-5-cards.png")
        assert calls()[-1] == "Ana: Play Double or Nothing"
        d.tap(scr.primary)  # keep the best (1 5 5 5) and bank
        yield 2
        assert calls()[-2:] == ["Ana: Keep 1 5 5 5", "Ana: Bank"]
        assert scr.status.text == "Ana's Double or Nothing"
        # The card's die, read by the camera: sure, so it is called at once.
        yield from roll_in_tray(5)
        assert calls()[-1] == "Ana: Roll 5"
        assert scr.rows["Ana"].score.text == "2,300"
        assert scr.status.text == "Dice-ocalypse: Ben's last turn, beat 2,300"
        # Ben's last turn: camera, hot dice, roll on, keep and bank.
        yield from roll_in_tray(1, 1, 1, 1, 5, 5)
        assert calls()[-1] == "Ben: Roll 1 1 1 1 5 5"
        assert "HOT DICE" in scr.hint.text
        assert scr.secondary.text == "Keep: hot dice!"
        d.tap(scr.secondary)  # Keep, roll on
        yield 2
        assert "Hot dice" in scr.hint.text and scr.info.text.startswith("Ben rolls 6 dice")
        assert scr.secondary.text == "Bank 2,100"
        yield from roll_in_tray(1, 1, 2, 3, 4, 6)
        d.tap(scr.primary)
        yield 2
        assert calls()[-3:] == ["Ben: Roll 1 1 2 3 4 6", "Ben: Keep 1 1", "Ben: Bank"]
        # Undo and redo the bank.
        d.tap(scr.undo_button)
        yield 1
        assert calls()[-1] == "Ben: Keep 1 1" and scr.secondary.text == "Bank 2,300"
        d.tap(scr.redo_button)
        yield 1
        assert calls()[-1] == "Ben: Bank"
        # Cy busts and is diced; Ana and Ben tie on 2,300 and roll all six dice.
        yield from enter(2, 2, 3, 3, 4, 6)
        assert "DICED" in scr.rows["Cy"].button.text
        assert scr.status.text == "Tie! Roll all six dice: highest sum wins"
        d.screenshot(shots / "diceocalypse-6-tie-break.png")
        yield from roll_in_tray(1, 1, 1, 1, 1, 1)
        yield from roll_in_tray(6, 6, 6, 6, 6, 6)
        assert s.game.is_over and s.game.state.winner == "Ben"
        assert scr.status.text == "Ben is the Die-structor!"
        d.screenshot(shots / "diceocalypse-7-winner.png")
        seen["history"] = calls()
        seen["setup"] = s.game.setup
        seen["id"] = s.game_id
        d.tap(scr.primary)  # New game: back to the start
        yield 2
        assert app.sm.current == "start"
        # Six players: every touch target >= 48 px inside the window, at both display sizes,
        # while entering a roll, keeping, and with the card panel open.
        start.set_count(6)
        start.choose("target", None)  # the rulebook's 10,000
        d.tap(start.start_button)
        yield 2
        six = app.session
        for text in ("Ana: Roll 6", "Ben: Roll 1", "Cy: Roll 2", "Dee: Roll 3", "Eli: Roll 4",
                     "Fay: Roll 5", "Ana: Roll 1 1 1 1 2 3", "Ana: Keep 1 1 1 1", "Ana: Bank",
                     "Ben: Roll 2 2 3 4 6 5"):
            six.call(text)
        yield 2
        problems: list[str] = []
        for size in ((1280, 720), (800, 480)):
            Window.size = size
            yield 3
            problems += touch_problems(screen(), size)
            d.tap(screen().cards_button)
            yield 2
            assert screen().card_tabs.children, "Ana may play a card on Ben"
            problems += touch_problems(screen(), size)
            press_in(d, screen().cards_view, "Close")
            yield 2
            assert not screen().cards_open
        d.screenshot(shots / "diceocalypse-8-six-players.png")
        # Ana plays Prove It on Ben; Ben answers with Immunity, both from the card panel.
        yield from card("Ana", "Prove It on Ben")
        assert six.game.history[-1].call == "Ana: Play Prove It on Ben"
        yield from card("Ben", "Immunity")
        assert six.game.history[-1].call == "Ben: Immunity"
        assert "Immunity used" in screen().rows["Ben"].button.text
        assert "4 cards" in screen().rows["Ana"].button.text
        assert screen().secondary.text == "Keep, roll 5 dice"
        d.tap(screen().secondary)  # keep the 5, roll on
        yield 2
        assert six.game.history[-1].call == "Ben: Keep 5"
        assert screen().info.text.startswith("Ben rolls 5 dice")
        problems += touch_problems(screen(), (800, 480))
        assert not problems, "\n".join(problems)
        # Leave and resume: the screen comes back where the game was.
        gid = six.game_id
        app.end_game()
        yield 2
        app.resume_game(gid)
        yield 2
        assert app.sm.current == "game-dice-ocalypse"
        assert screen().info.text.startswith("Ben rolls 5 dice")
        assert screen().rows["Ana"].score.text == "2,000"
        yield from enter(1, 1, 1, 2, 3)
        assert app.session.game.history[-1].call == "Ben: Roll 1 1 1 2 3"
        assert "Keep 1 1 1 = 1,000 -> 1,050 this turn" in screen().hint.text

    run_app(app, script)
    # The journal holds the whole game; replaying it gives the same winner.
    from companion.journal import Journal

    journal = Journal(app_dirs / "j.sqlite3")
    record = journal.load(seen["id"])
    journal.close()
    assert [e.call for e in record.entries] == seen["history"]
    assert record.finished is not None
    game = replay(seen["setup"], seen["history"])
    assert game.is_over and game.state.winner == "Ben"
