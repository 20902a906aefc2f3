"""Dice of the Occulites through the real app: Tribes by touch, the timer's cues, one line-up
tapped in (colour, then pips), one read from a tray of dice through the adapter with unsure dice
confirmed by touch, the six cards stepped through with the engine's explanations, Share
Knowledge by touch, undo/redo, and a second round to the final scores.

The first test's tray holds stand-ins with vision's Die attributes (to choose exactly which
dice are unsure); the last test draws real frames and reads them with vision.read_dice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fingers import CameraFinger
from table_tours import die_at

from vision.types import Reading

pytestmark = pytest.mark.app


def unsized(text: str) -> str:
    """A text without the sizes the screen gives its lines (Kivy markup)."""
    return re.sub(r"\[/?size[^\]]*\]", "", text)


def tray(rows: list[list[tuple[str, int | None, float]]]) -> Reading:
    """A reading of line-ups laid in rows (seat 1 at the top), dice given left to right, with
    vision's Die attributes; None pips = a die the camera could not read."""
    dice = []
    for r, row in enumerate(rows):
        for i, (colour, pips, conf) in enumerate(row):
            dice.append(die_at(60.0 + 90 * i + 7 * r, 80.0 + 150 * r + 5 * i, pips, colour,
                               conf))
    return Reading(tuple(dice[::-1]), (480, 640))


def test_occulites_round_by_touch_and_tray(app_dirs: Path) -> None:
    from kivy.utils import escape_markup

    from companion import theme
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.settings import Settings
    from rules import replay

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    shots = Path(os.environ.get("OCCULITES_SCREENSHOTS", str(app_dirs / "shots")))
    seen: dict[str, Any] = {}

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        start.rounds_spin.text = "2"
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-occulites", start.message.text
        scr = app.game_screen
        s = app.session
        g = s.game
        assert g.phase == "tribes" and "Ana" in scr.message.text
        d.screenshot(shots / "occulites-1-tribes.png")
        # Tribes by touch: Ana first (the default chooser), then Ben chosen by his header.
        d.tap(scr.tribe_buttons["Palaudis"])
        yield 1
        assert scr.tribe_buttons["Palaudis"].disabled
        d.tap(scr.rows["Ben"].header)
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])
        yield 2
        assert g.phase == "allocate" and g.state.round == 1
        cards = g.current_cards()
        assert [unsized(lbl.text).split("\n")[:2] for lbl in scr.card_labels] == \
            [[f"[b]{c.number}[/b]", c.colour] for c in cards]
        # The timer: look, warning, hide; the calls carry the seconds since the roll.
        d.tap(scr.roll_button)
        yield 1
        assert "occulites_start" in app.heard and scr.timer_label.text.startswith("Look")
        advance(10.5)
        assert "occulites_warning" in app.heard
        advance(5.0)
        assert "occulites_hide" in app.heard and scr.timer_label.text.startswith("Line up")
        # Ana's line-up by touch: her first die, then colour and pips for each card.
        ana = [5, 3, 2, 6, 1, 4]
        d.tap(scr.rows["Ana"].slots[0])
        yield 1
        assert scr.colour_buttons["blue"].disabled  # Ana holds only green dice
        for n in ana:
            d.tap(scr.colour_buttons["green"])
            yield 1
            d.tap(scr.pip_buttons[n - 1])
            yield 1
        assert tuple(x.pips for x in g.state.lineups["Ana"]) == tuple(ana)
        assert g.history[-1].at == pytest.approx(15.5)
        assert "lined up" in scr.rows["Ana"].header.text
        assert scr.reveal_button.disabled  # Ben has not lined up
        d.tap(scr.read_button)  # this table has no camera
        yield 1
        assert "No camera" in scr.message.text
        # Ben's line-up from the tray: card 2 unreadable, card 5 read with doubt.
        ben = [4, 3, 6, 1, 2, 3]
        rows = [[("green", n, 0.95) for n in ana],
                [("blue", n, 0.95) for n in ben]]
        rows[1][1] = ("blue", None, 0.3)
        rows[1][4] = ("blue", 2, 0.4)
        reads = scr.apply_reading(tray(rows))
        yield 1
        assert reads["Ben"].uncertain == (2, 5) and reads["Ana"].complete
        assert "Ben" not in g.state.lineups and scr.model.sel == ("Ben", 1)
        assert scr.model.flagged["Ben"] == {1, 4}  # framed in orange, the first one selected
        assert scr.rows["Ben"].outlines[4].frame.bg == list(theme.DANGER)
        assert "[b]Ben, card 2[/b]: the camera is not sure" in scr.message.text
        assert unsized(scr.rows["Ben"].slots[1].text).startswith("[b]?")
        d.screenshot(shots / "occulites-2-confirm.png")
        d.tap(scr.pip_buttons[2])  # card 2 shows 3 pips
        yield 1
        assert scr.model.sel == ("Ben", 4)
        d.tap(scr.confirm_button)  # card 5 was read right
        yield 1
        assert tuple(x.pips for x in g.state.lineups["Ben"]) == tuple(ben)
        assert not scr.reveal_button.disabled
        advance(30.0)
        assert "occulites_reveal" in app.heard and scr.timer_label.text == "Reveal!"
        # Reveal: the six cards one at a time, each with the engine's explanation.
        d.tap(scr.reveal_button)
        yield 2
        assert g.phase == "share"
        explained = g.explain_round()
        outcomes = list(g.state.outcomes)
        for k in range(6):
            assert scr.model.resolving.step == k + 1
            assert explained[k] in scr.message.text
            assert scr.card_outlines[k].frame.bg == list(theme.ACCENT)
            o = outcomes[k]
            for p in ("Ana", "Ben"):
                header = scr.rows[p].header.text
                if o.winner == p:
                    assert "WINS" in header
                elif p in o.discoverers:
                    assert "shares" in header
                else:
                    assert "WINS" not in header and "shares" not in header
            if k == 1:
                d.screenshot(shots / "occulites-3-card.png")
                assert not touch_problems(scr, (800, 480)), touch_problems(scr, (800, 480))
            d.tap(scr.next_button)
            yield 1
        assert scr.model.resolving is None
        # Share Knowledge, guided: the first winner gives a die for the pool's pink one.
        who = g.whose_turn()
        assert who in ("Ana", "Ben") and f"{who}[/b] won card" in scr.message.text
        mine = "green" if who == "Ana" else "blue"
        points = g.state.points[who]
        assert not scr.share_colour_buttons[mine].disabled
        assert scr.share_colour_buttons["pink"].disabled  # not a die of theirs
        d.tap(scr.share_colour_buttons[mine])
        yield 1
        assert "from where?" in scr.message.text
        assert scr.source_buttons[who].disabled  # not from themselves
        d.tap(scr.source_buttons["pool"])
        yield 1
        d.screenshot(shots / "occulites-4-share.png")
        assert not touch_problems(scr, (800, 480)), touch_problems(scr, (800, 480))
        assert scr.share_colour_buttons[mine].disabled  # the pool's dice: which one?
        d.tap(scr.share_colour_buttons["pink"])
        yield 1
        assert g.state.points[who] == points - 1 and g.state.dice[who]["pink"] == 1
        assert g.history[-1].call == f"{who}: Share {mine} for pink from pool"
        while g.phase == "share":
            d.tap(scr.pass_button)
            yield 1
        assert g.state.round == 2 and g.phase == "allocate"
        assert "Round 2 of 2" in scr.title_label.text
        # Undo takes the last call back; redo brings it again.
        d.tap(scr.undo_button)
        yield 1
        assert g.phase == "share" and g.state.round == 1
        d.tap(scr.redo_button)
        yield 1
        assert g.state.round == 2
        # A line-up the engine refuses (the sharer now holds a pink die): its reason is shown.
        d.tap(scr.rows[who].slots[0])
        yield 1
        for n in range(1, 7):
            d.tap(scr.colour_buttons[mine])
            yield 1
            d.tap(scr.pip_buttons[n - 1])
            yield 1
        assert who not in g.state.lineups
        assert f"{who} holds " in scr.message.text and "pink" in scr.message.text
        assert scr.model.sel == (who, 0)
        d.tap(scr.clear_button)
        yield 1
        # Round 2 from the tray, all dice sure: both line-ups become calls at once.
        rows2 = []
        for p in ("Ana", "Ben"):
            colours = [c for c, n in g.state.dice[p].items() for _ in range(n)]
            rows2.append([(c, 1 + (i * 5 + len(p)) % 6, 0.9) for i, c in enumerate(colours)])
        scr.apply_reading(tray(rows2))
        yield 1
        assert set(g.state.lineups) == {"Ana", "Ben"}
        assert not touch_problems(scr, (800, 480)), touch_problems(scr, (800, 480))
        d.tap(scr.reveal_button)
        yield 1
        assert g.is_over
        while scr.model.resolving is not None:
            d.tap(scr.next_button)
            yield 1
        winner = g.standings().winner  # "Ana & Ben" when they share the victory
        assert escape_markup(f"Winner: {winner}") in scr.message.text  # as markup shows it
        d.screenshot(shots / "occulites-5-over.png")
        seen["gid"] = s.game_id
        seen["history"] = [e.call for e in g.history]
        seen["setup"] = g.setup
        d.tap(scr.finish_button)
        yield 1
        assert app.sm.current == "start"

    run_app(app, script)
    from companion.journal import Journal

    journal = Journal(app_dirs / "j.sqlite3")
    entries = journal.load(seen["gid"]).entries
    journal.close()
    assert [e.call for e in entries] == seen["history"]
    again = replay(seen["setup"], list(entries))
    assert again.is_over and again.standings().winner is not None
    names = ("1-tribes", "2-confirm", "3-card", "4-share", "5-over")
    for name in names:
        assert (shots / f"occulites-{name}.png").stat().st_size > 1000


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_occulites_draft_and_layout(app_dirs: Path, size: tuple[int, int]) -> None:
    """Five players, Lots of Interests and Creatures & Predators chosen on the start screen
    (the table screen has no toggles): the draft by touch, Creatures and Predators in the
    line-up, every touch target at least 48 px inside the window in each phase."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    shots = Path(os.environ.get("OCCULITES_SCREENSHOTS", str(app_dirs / "shots")))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(5)
        start.choose("lots_of_interests", True)
        start.choose("creatures", True)
        assert start.option_words("lots_of_interests") == "Lots of Interests"
        assert start.option_words("creatures") == "Creatures & Predators"
        d.tap(start.start_button)
        yield 2
        scr = app.game_screen
        g = app.session.game
        assert len(scr.rows) == 5
        assert g.options.creatures and g.options.lots_of_interests and g.phase == "draft"
        assert not hasattr(scr, "mode_buttons")
        assert not touch_problems(scr, size), touch_problems(scr, size)
        if size == (800, 480):
            d.screenshot(shots / "occulites-6-draft.png")
        # The draft by touch: whoever's turn it is takes the first colour the pool has.
        while g.phase == "draft":
            who = g.whose_turn()
            assert f"{who}[/b]: take one die" in scr.message.text
            colour = next(c for c, b in scr.take_colour_buttons.items() if not b.disabled)
            before = g.state.dice[who][colour]
            d.tap(scr.take_colour_buttons[colour])
            yield 1
            assert g.state.dice[who][colour] == before + 1
        assert g.phase == "allocate"
        ids = [c.id for c in g.current_cards()]
        assert any(i.startswith(("Creatures", "Predators")) for i in ids)
        assert [lbl.text.split("\n")[2:3] for lbl in scr.card_labels] == \
            [[c.set.removesuffix("s")] if c.set in ("Creatures", "Predators") else []
             for c in g.current_cards()]
        d.tap(scr.rows["Cy"].header)
        yield 1
        assert scr.model.sel == ("Cy", 0)
        assert not touch_problems(scr, size), touch_problems(scr, size)
        if size == (800, 480):  # an offscreen window resized to 1280x720 screenshots garbled
            d.screenshot(shots / "occulites-7-five-players.png")

    run_app(app, script, size=size)


class TrayCamera:
    """A camera over the tray: an empty table until ``image`` (BGR) is laid out; 0.05 s of
    virtual time a frame."""

    name = "fake"  # a camera, not the stand-in

    def __init__(self) -> None:
        import numpy as np

        self.image = np.full((480, 640, 3), 200, np.uint8)
        self.reads = 0

    def read(self) -> Any:
        self.reads += 1
        return SimpleNamespace(image=self.image, t=self.reads * 0.05, index=self.reads)

    def close(self) -> None:
        pass


def test_occulites_round_from_camera_frames(app_dirs: Path) -> None:
    """Frames drawn by vision's renderer go through the app's camera feed (its worker thread,
    vision.read_dice, the roll tracker), then the adapter (the Camera button) into the engine,
    until the round is finished."""
    import sys

    from vision import synthetic

    helpers = Path(__file__).parents[1] / "companion"  # the adapter's test and its helpers
    sys.path[:0] = [str(helpers / "games"), str(helpers)]
    from test_occulites_adapter import render_tray

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.services.feed import CameraFeed

    camera = TrayCamera()
    feed = CameraFeed("tray", fps=30.0, settle_s=0.2, open_source=lambda spec: camera)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       camera=feed)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        start.rounds_spin.text = "2"
        d.tap(start.start_button)
        yield 2
        scr = app.game_screen
        g = app.session.game
        d.tap(scr.tribe_buttons["Palaudis"])
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])
        yield 1
        truth = {"Ana": [("green", n) for n in (5, 3, 2, 6, 1, 4)],
                 "Ben": [("blue", n) for n in (4, 3, 6, 1, 2, 3)]}
        assert feed.running  # the screen wants the camera
        camera.image = render_tray(synthetic, truth)
        # The players wait for the camera to settle on the laid-out line-ups, then tap Camera.
        for _ in range(600):
            snap = feed.latest()
            if scr.model.settled is not None and snap is not None and not snap.moving \
                    and len(scr.model.settled.dice) == 12:
                break
            yield 1
        assert "The camera sees 12 dice" in scr.message.text
        d.tap(scr.read_button)
        yield 1
        for p, lineup in truth.items():
            if p in g.state.lineups:
                assert [(x.colour, x.pips) for x in g.state.lineups[p]] == lineup
        # Whatever the camera was unsure of is confirmed by touch, as the players would.
        touched = 0
        while scr.model.sel is not None:
            touched += 1
            p, i = scr.model.sel
            colour, pips = truth[p][i]
            d.tap(scr.colour_buttons[colour])
            yield 1
            d.tap(scr.pip_buttons[pips - 1])
            yield 1
        assert {p: [(x.colour, x.pips) for x in g.state.lineups[p]] for p in truth} == truth
        assert touched <= 2, f"the camera left {touched} of 12 dice to the players"
        d.tap(scr.reveal_button)
        yield 1
        explained = [o.explanation for o in g.state.outcomes]
        for k in range(6):
            assert explained[k] in scr.message.text
            d.tap(scr.next_button)
            yield 1
        while g.phase == "share":
            d.tap(scr.pass_button)
            yield 1
        assert g.state.round == 2 and "Round 2 of 2" in scr.title_label.text

    run_app(app, script)


def test_occulites_resume_mid_share(app_dirs: Path) -> None:
    """Leaving during Share Knowledge and resuming brings back the guided share step, with the
    cards' winners from the engine."""
    from companion import theme
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        s = app.session
        for text in ("Ana: Tribe Palaudis", "Ben: Tribe Hydris",
                     "Ana: Line-up green 6, green 1, green 6, green 1, green 6, green 1",
                     "Ben: Line-up blue 1, blue 6, blue 1, blue 6, blue 1, blue 6", "Reveal"):
            s.call(text)
            yield 1
        assert s.game.phase == "share" and app.game_screen.model.resolving is not None
        app.end_game()
        yield 1
        app.resume_game(app.journal.unfinished()[0].id)
        yield 2
        scr = app.game_screen
        g = app.session.game
        assert app.sm.current == "game-occulites" and scr.model.resolving is None
        assert g.whose_turn() == "Ana" and "[b]Ana[/b] won card 1 alone" in scr.message.text
        assert [lbl.text.split("\n")[-1] for lbl in scr.card_labels] == \
            [f"[b]+{n} alone[/b]" for n in range(1, 7)]
        # Who won each card: their die in that card's column is framed.
        assert [scr.rows["Ana" if n % 2 else "Ben"].outlines[n - 1].frame.bg
                for n in range(1, 7)] == [list(theme.ACCENT)] * 6
        assert scr.rows["Ben"].outlines[0].frame.bg == list(theme.BACKGROUND)
        assert "6[/b]" in scr.rows["Ana"].slots[0].text
        d.tap(scr.pass_button)
        yield 1
        assert g.whose_turn() == "Ben" and "Ana does not share for card 1" in scr.message.text

    run_app(app, script)


def test_no_tap_lost_while_the_camera_settles(app_dirs: Path) -> None:
    """The camera feed runs over a tray where dice are thrown again and again (each throw
    settles: the screen hears ``on_settled`` and says what the camera sees) while a player
    enters a line-up by touch: 13 taps (their header, then colour and pips for each card).
    Each finger lands in the very frame a settled view arrives (after the screen has heard
    it, before the next layout) and lifts after the next one. Every tap counts: the redraw
    changes words in place and makes no button again (a button made again lies unplaced until
    the next layout pass, so a finger landing then touched nothing)."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.services.feed import CameraFeed
    from companion.services.standin import ThrownDice
    from vision.synthetic import SynthDie

    tray = ThrownDice(fps=10.0, background_bgr=(60, 110, 50))
    feed = CameraFeed("test tray", fps=30.0, settle_s=0.2, open_source=lambda spec: tray)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3", camera=feed)
    taps: list[str] = []
    seen: dict[str, Any] = {}

    def throw() -> None:
        n = tray.throws
        tray.throw([SynthDie((90.0 + 90.0 * i, 200.0 + 40.0 * (n % 3)), 52.0, angle=7.0 * i,
                             value=1 + (i + n) % 6) for i in range(4)], roll_s=0.4)

    # the players keep handling dice: another settled view soon after each
    finger = CameraFinger(after=throw)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        scr = app.game_screen
        g = app.session.game
        # Count every tap the screen hears (the buttons call these at release).
        for name in ("tap_player", "tap_colour", "tap_pips"):
            real = getattr(scr, name)
            setattr(scr, name, lambda *a, real=real, name=name: (taps.append(name), real(*a)))
        scr.on_settled = finger.hook(scr.on_settled)
        d.tap(scr.tribe_buttons["Palaudis"])
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])
        yield 1
        assert g.phase == "allocate" and feed.running
        throw()
        pips = [5, 3, 2, 6, 1, 4]
        yield from finger.tap(scr.rows["Ana"].header)
        for n in pips:
            yield from finger.tap(scr.colour_buttons["green"])
            yield from finger.tap(scr.pip_buttons[n - 1])
        seen["lineup"] = [(x.colour, x.pips) for x in g.state.lineups.get("Ana", ())]
        seen["settles"] = finger.events

    run_app(app, script, timeout=300)
    assert len(taps) == 13, f"{13 - len(taps)} of 13 taps lost: {taps}"
    assert seen["lineup"] == [("green", n) for n in (5, 3, 2, 6, 1, 4)]
    assert seen["settles"] >= 26


def test_nothing_moves_after_the_first_call(app_dirs: Path) -> None:
    """The options are the start screen's: nothing on the table screen moves or disappears
    when play begins. Every button's place before the first Tribe is chosen is its place
    after (at 2 and at 5 players)."""
    from kivy.uix.button import Button

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    moved: list[str] = []
    counted: list[int] = []

    def places(root: Any) -> dict[str, tuple[float, float, float, float]]:
        out = {}
        for w in root.walk():
            if isinstance(w, Button) and w.opacity > 0 and w.get_root_window() is not None:
                x, y = w.to_window(w.x, w.y)
                out[w.text.split("\n")[0]] = (round(x), round(y), round(w.width),
                                              round(w.height))
        return out

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        for count in (2, 5):
            app.show("start")
            start.set_count(count)
            yield 1
            d.tap(start.start_button)
            yield 3
            scr = app.game_screen
            before = places(scr)
            counted.append(len(before))
            d.tap(scr.tribe_buttons["Palaudis"])
            yield 3
            assert app.session.game.history, "the Tribe was not chosen"
            after = places(scr)
            for key, where in before.items():
                if key not in after:
                    moved.append(f"{count} players: {key!r} is gone")
                elif after[key] != where:
                    moved.append(f"{count} players: {key!r} moved from {where} to "
                                 f"{after[key]}")
            app.end_game()
            yield 2

    run_app(app, script)
    assert min(counted) >= 7 + 4  # the Tribes, Undo/Redo/Dice/Mute/Menu...
    assert moved == [], "\n".join(moved)


def test_words_plurals_and_colours_named(app_dirs: Path) -> None:
    """Counts in words that agree ("1 die", "1 point"), and every die colour written where it
    is drawn: on each die of the line-ups, and on each card even once it is won (the card's
    colour decides ties)."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.occulites.screen import DIE_RGBA
    from companion.settings import Settings
    from rules.occulites import CARDS as ALL_CARDS

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    said: dict[str, str] = {}
    unnamed: list[str] = []

    def named(scr: Any, where: str) -> None:
        """Every die and card drawn in a dice colour says which."""
        for p, row in scr.rows.items():
            for i, b in enumerate(row.slots):
                for colour, rgba in DIE_RGBA.items():
                    if tuple(b.background_color) == rgba and colour not in b.text:
                        unnamed.append(f"{where}: {p}'s die {i + 1} is {colour}: {b.text!r}")
        for i, (label, card) in enumerate(zip(scr.card_labels, scr.model.card_ids(), strict=False)):
            colour = ALL_CARDS[card].colour
            if colour not in label.text:
                unnamed.append(f"{where}: card {i + 1} is {colour}: {label.text!r}")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        start.choose("lots_of_interests", True)
        d.tap(start.start_button)
        yield 2
        scr = app.game_screen
        s = app.session
        g = s.game
        who = g.whose_turn()
        d.tap(scr.take_colour_buttons["green"])
        yield 1
        said["one die"] = scr.rows[who].header.text
        while g.phase == "draft":
            s.call(f"{g.whose_turn()}: Take {'green' if g.whose_turn() == 'Ana' else 'blue'}")
        yield 1
        scr.on_settled(tray([[("green", 3, 0.9)]]))  # one die lies still on the tray
        yield 1
        said["camera"] = scr.message.text
        s.call("Ana: Line-up green 6, green 1, green 6, green 1, green 6, green 1")
        s.call("Ben: Line-up blue 1, blue 6, blue 1, blue 6, blue 1, blue 6")
        yield 1
        named(scr, "lined up")
        d.tap(scr.reveal_button)
        yield 2
        said["one point"] = scr.rows["Ana"].header.text  # card 1 (1 point) is shown
        named(scr, "card 1")
        while scr.model.resolving is not None:
            d.tap(scr.next_button)
            yield 1
        named(scr, "share")

    run_app(app, script)
    said = {k: unsized(v) for k, v in said.items()}
    assert "\n1 die" in said["one die"] and "1 dice" not in said["one die"], said
    assert "The camera sees 1 die:" in said["camera"], said
    assert "\n1 point" in said["one point"] and "1 points" not in said["one point"], said
    assert unnamed == [], "\n".join(unnamed)
