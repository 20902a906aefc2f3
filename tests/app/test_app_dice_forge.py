"""Dice Forge through the real app, by touch: rolls tapped face by face, a forge, a heroic
feat, undo and redo, to the end of the game; every hero's reserves and glory on screen are
checked against the engine after every tap. A second game picks the Titans module on the
start screen and plays its turns, with the board on show.

Set DICE_FORGE_SHOTS=DIR to keep the screenshots (docs/screenshots/dice-forge-*.png)."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import tap_start

pytestmark = pytest.mark.app


def _shot(d: Any, name: str, tmp: Path) -> None:
    folder = Path(os.environ.get("DICE_FORGE_SHOTS", tmp))
    d.screenshot(folder / f"dice-forge-{name}.png")


def _tap(d: Any, widget: Any) -> Generator[int, None, None]:
    """Scroll the widget into view when it sits in a ScrollView, then touch it."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = None if parent.parent is parent else parent.parent  # the Window is its own
    if parent is not None:
        parent.scroll_to(widget, padding=0, animate=False)
        yield 2
    d.tap(widget)
    yield 2
    screen = d.app.game_screen
    if screen is not None:  # every button on show is a comfortable touch target
        small = {k: b.height for k, b in screen.buttons.items() if b.height < 48}
        assert not small, small


def _check_panels(screen: Any) -> None:
    """What every panel shows equals the engine's reserves, caps, glory and score."""
    game = screen.session.game
    for p in game.state.players:
        shown = screen.panels[p.name].numbers()
        want = {"gold": p.gold, "gold_cap": p.cap("gold"), "sun": p.sun,
                "sun_cap": p.cap("sun"), "moon": p.moon, "moon_cap": p.cap("moon"),
                "glory": p.glory, "score": game.score(p.name)}
        if game.state.module == "titans":
            want |= {"ancient": p.ancient, "ancient_cap": p.cap("ancient")}
        assert shown == want, (p.name, shown, want)
        panel = screen.panels[p.name]
        assert [v.face for v in panel.die_views] == [p.face_up(0), p.face_up(1)]


def _roll(d: Any, screen: Any, prefer: dict[str, tuple[str, str]]) -> Generator[int, None, None]:
    """Tap the two faces of a divine blessing: the preferred faces when the dice carry them."""
    from companion.theme import SELECT

    st = screen.session.game.state.steps[0]
    p = screen.session.game.state.player(st.player)
    want = prefer.get(p.name, ("", ""))
    before = len(screen.session.game.history)
    for die in (0, 1):
        face = want[die] if want[die] in p.dice[die] else p.dice[die][0]
        yield from _tap(d, screen.buttons[f"die{die + 1}:{face}"])
        if die == 0:  # the first face stays marked until the second is tapped
            assert screen.buttons[f"die1:{face}"].background_color == pytest.approx(SELECT)
    if "first:1" in screen.buttons:  # the order matters (a golem or loyalty face): die 1
        yield from _tap(d, screen.buttons["first:1"])
    assert len(screen.session.game.history) == before + 1
    _check_panels(screen)


def _settle(d: Any, screen: Any, prefer: dict[str, tuple[str, str]]) -> Generator[int, None, None]:
    """Answer rolls and choices until the active player's action (or the game's end)."""
    game = screen.session.game
    while game.state.steps:
        kind = game.state.steps[0].kind
        if kind == "roll2":
            yield from _roll(d, screen, prefer)
        elif kind == "choose":
            first = next(k for k in screen.buttons if k.startswith("choose:"))
            yield from _tap(d, screen.buttons[first])
        else:
            raise AssertionError(f"unexpected step {kind}: {game.waiting_for()}")
        _check_panels(screen)


def test_dice_forge_by_touch(app_dirs: Path, tmp_path: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from rules import replay

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        start.set_count(2)
        start.rounds_spin.text = "2"
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-dice-forge", start.message.text
        screen = app.game_screen
        game = screen.session.game
        assert game.state.rounds == 2
        assert screen.prompt_label.text == "Ana rolls both dice"
        assert screen.frame.title.text == "Round 1 of 2"
        _check_panels(screen)
        _shot(d, "roll", tmp_path)
        # Turn 1 (Ana): gold first, then sun and moon; then she forges two faces at once.
        gold0 = game.state.player("Ana").gold
        prefer = {"Ana": ("1 gold", "1 gold"), "Ben": ("1 sun", "1 moon")}
        yield from _roll(d, screen, prefer)
        yield from _roll(d, screen, prefer)
        prefer["Ana"] = ("1 sun", "1 moon")
        yield from _settle(d, screen, prefer)
        ana = game.state.player("Ana")
        assert (ana.gold, ana.sun, ana.moon) == (gold0 + 2, 1, 1)
        assert screen.prompt_label.text == "Ana: forge, perform a feat or pass"
        yield from _tap(d, screen.buttons["forge"])
        assert screen.model.mode == "forge"
        # Only faces Ana can afford are offered, as the engine lists them.
        offered = {k[4:] for k, b in screen.buttons.items()
                   if k.startswith("buy:") and not b.disabled}
        engine = {c.buys[0].face for c in game.legal_purchases("Ana") if hasattr(c, "buys")}
        assert offered == engine and "3 gold" in offered
        assert screen.buttons["buy:2 sun"].disabled  # 8 gold
        _shot(d, "sanctuary-forge", tmp_path)
        yield from _tap(d, screen.buttons["buy:3 gold"])
        overs = sorted(k for k, b in screen.buttons.items()
                       if k.startswith("over:") and not b.disabled)
        legal = sorted(f"over:{c.buys[0].die}:{c.buys[0].over}"
                       for c in game.legal_purchases("Ana")
                       if getattr(c, "buys", None) and c.buys[0].face == "3 gold")
        assert overs == legal and "over:1:1 gold" in overs
        yield from _tap(d, screen.buttons["over:1:1 gold"])
        # A second face: not another 3 gold (one forge buys no two identical faces), nothing
        # dearer than the gold left, and 1 moon (2 gold) is still offered.
        left = ana.gold - 2
        assert screen.buttons["buy:3 gold"].disabled
        assert screen.buttons["buy:1 moon"].disabled is (left < 2)
        for _pool, cost, faces in game.sanctuary_view():
            for f in faces:
                if cost > left:
                    assert screen.buttons[f"buy:{f}"].disabled, (f, cost, left)
        if left >= 2:
            yield from _tap(d, screen.buttons["buy:1 moon"])
            yield from _tap(d, screen.buttons["over:2:1 gold"])
        _shot(d, "sanctuary-basket", tmp_path)
        yield from _tap(d, screen.buttons["forge-now"])
        said = "Ana: Forge 3 gold on die 1 over 1 gold"
        if left >= 2:
            said += "; 1 moon on die 2 over 1 gold"
        assert game.history[-1].call == said
        ana = game.state.player("Ana")
        assert ana.dice[0].count("3 gold") == 1 and ana.gold == left - 2 * (left >= 2)
        assert screen.model.mode == ""
        _check_panels(screen)
        # Undo and redo by the top bar's buttons.
        yield from _tap(d, screen.undo_b)
        assert game.state.player("Ana").dice[0].count("3 gold") == 0
        _check_panels(screen)
        yield from _tap(d, screen.redo_b)
        assert game.state.player("Ana").dice[0].count("3 gold") == 1
        _check_panels(screen)
        # Turn 2 (Ben): sun and moon on every roll, then a heroic feat.
        yield from _settle(d, screen, prefer)
        assert game.state.current.name == "Ben"
        yield from _tap(d, screen.buttons["feat"])
        assert screen.model.mode == "perform"
        offered = {k[5:] for k, b in screen.buttons.items()
                   if k.startswith("feat:") and not b.disabled}
        engine = {c.card for c in game.legal_purchases("Ben") if hasattr(c, "card")}
        assert offered == engine and offered
        for _slot, name, _sun, _moon, _left in game.feat_view():
            assert screen.buttons[f"feat:{name}"].disabled is (name not in engine), name
        _shot(d, "feats-perform", tmp_path)
        ben = game.state.player("Ben")
        glory_before, cards_before = game.score("Ben"), len(ben.cards)
        card = sorted(engine)[0]
        yield from _tap(d, screen.buttons[f"feat:{card}"])
        assert game.history[-1].call.startswith(f"Ben: Perform {card}")
        yield from _settle(d, screen, prefer)
        assert len(game.state.player("Ben").cards) == cards_before + 1
        seen["feat"] = (card, glory_before, game.score("Ben"))
        _check_panels(screen)
        # The rest of the game: Ana and Ben pass (or end their turn) until it is over.
        while not game.is_over:
            yield from _settle(d, screen, prefer)
            if game.is_over:
                break
            key = "Pass" if "Pass" in screen.buttons else "End turn"
            if game.state.round == 2 and game.state.current.name == "Ana" and key == "Pass":
                _shot(d, "action", tmp_path)
            yield from _tap(d, screen.buttons[key])
            _check_panels(screen)
        assert screen.prompt_label.text.endswith(("wins", "A shared victory"))
        assert screen.buttons["standings"].text == "Final standings"
        _shot(d, "over", tmp_path)
        seen["history"] = [e.call for e in game.history]
        seen["setup"] = game.setup
        seen["standings"] = game.standings()

    run_app(app, script)
    _card, before, after = seen["feat"]
    assert after >= before
    # The journal holds the same game: replaying it gives the same standings.
    journal = Journal(app_dirs / "j.sqlite3")
    resumed = journal.resume(journal.games()[-1].id)
    live = [e.call for e in resumed.history]
    assert live == seen["history"]
    assert resumed.standings() == seen["standings"]
    assert replay(seen["setup"], live).standings() == seen["standings"]


def test_dice_forge_titans_module_chosen_on_the_start_screen(app_dirs: Path,
                                                             tmp_path: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        start.set_count(3)
        start.choose("module", "titans")
        assert "six base-game others" in start.option_spins["cards"].values
        start.option_spins["cards"].text = "six base-game others"  # the Feats option, in words
        d.tap(start.start_button)
        yield 2
        screen = app.game_screen
        game = screen.session.game
        assert game.state.module == "titans"
        feats = [name for _slot, name, *_ in game.feat_view()]
        assert "Cerberus" in feats and "The Chaos" in feats  # others, the module's kept
        assert not [k for k in screen.buttons if k.startswith("module:")]
        assert "Titans" in screen.frame.title.text
        _check_panels(screen)  # ancient shards shown with their cap
        prefer = {n: ("1 ancient", "1 loyalty + 1 glory") for n in ("Ben", "Cy")}
        prefer["Ana"] = ("1 gold", "1 loyalty + 1 glory")
        yield from _roll(d, screen, prefer)
        ana = game.state.player("Ana")
        assert ana.titan == 17 and "Titans 17 (+1)" in screen.panels["Ana"].token_label.text
        yield from _settle(d, screen, prefer)
        view = screen.look_board()
        yield 2
        texts = [getattr(w, "text", "") for w in view.walk()]
        assert "[b]17[/b]  +1" in texts and any("An" in t for t in texts)
        _shot(d, "titans-board", tmp_path)
        view.dismiss(animation=False)
        yield 1
        # Ana's action: a feat paid (in part) with ancient shards if the engine offers one.
        yield from _tap(d, screen.buttons["feat"] if not screen.buttons["feat"].disabled
                        else screen.buttons["Pass"])
        if screen.model.mode == "perform":
            key = next(k for k, b in screen.buttons.items()
                       if k.startswith("feat:") and not b.disabled)
            yield from _tap(d, screen.buttons[key])
            assert game.history[-1].call.startswith("Ana: Perform")
        yield from _settle(d, screen, prefer)
        _check_panels(screen)
        assert game.state.current.name == "Ben" or game.state.phase == "after"

    run_app(app, script)


def test_dice_forge_goddess_labyrinth_drawn(app_dirs: Path, tmp_path: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        start.set_count(2)
        start.choose("module", "goddess")
        d.tap(start.start_button)
        yield 2
        screen = app.game_screen
        game = screen.session.game
        assert game.state.module == "goddess"
        yield from _settle(d, screen, {})
        _check_panels(screen)
        for p in game.state.players:
            assert f"golem on {p.golem}" in screen.panels[p.name].token_label.text
        view = screen.look_board()
        yield 2
        texts = [getattr(w, "text", "") for w in view.walk()]
        assert any(t.startswith("[b]36[/b]") for t in texts)  # the Goddess space is drawn
        assert sum("An" in t for t in texts) == 1  # Ana's golem stands on one space
        _shot(d, "goddess-board", tmp_path)

    run_app(app, script)


def test_the_camera_reads_a_blessing_roll_when_the_profile_knows_the_faces(
        app_dirs: Path) -> None:
    """Dice Forge's camera is wired: with a camera whose rolls count and a face set that knows
    Dice Forge faces, a settled roll during a roll of both dice becomes the call; without the
    face set the players tap, and the button is not offered. The game is the Goddess module,
    whose first roll (1 sun and moon golem) ends the same in either order (the golem's fork
    comes before or after the sun): the reading is called at once, with no question."""
    from companion.compose import CompanionApp
    from companion.contract import Snapshot
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Die, Profile, Reading
    from vision.profile import FEATURE_LENGTH, FaceSet

    class TableCamera:  # a CameraView whose newest picture the test sets
        label, stand_in, rolls_count, error, ended = "test camera", False, True, None, None
        snap: Snapshot | None = None

        def want(self, who: str) -> None:
            pass

        def release(self, who: str) -> None:
            pass

        def expect(self, rollers: Any, turn: int = 0) -> None:
            pass

        photo_table = False

        def next_photo(self) -> bool:
            return False

        def latest(self) -> Snapshot | None:
            return self.snap

        def crops_of(self, reading: Reading) -> None:
            return None  # no picture kept: the players' corrections teach nothing

        def close(self) -> None:
            pass

    def die(x: float, face: str) -> Die:
        corners = ((x - 20, 80.0), (x + 20, 80.0), (x + 20, 120.0), (x - 20, 120.0))
        return Die((x, 100.0), corners, 0.0, 40.0, None, face, "white", 0.95)

    camera = TableCamera()
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    app.cameras.feed = camera  # type: ignore[assignment]

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        start.set_count(2)
        start.choose("module", "goddess")
        d.tap(start.start_button)
        yield 2
        screen = app.game_screen
        s = app.session
        assert screen is not None and s is not None
        st = s.game.state
        ana = st.player(st.steps[0].player)
        faces = (ana.dice[0][0], ana.dice[1][0])
        reading = Reading((die(100.0, faces[0]), die(300.0, faces[1])), (480, 640))
        app.on_settled_roll(reading)  # no face set yet: nothing is read, nothing offered
        yield 1
        assert not s.game.history and "camera" not in screen.buttons
        labels = tuple(sorted({f for p in st.players for dd in p.dice for f in dd}))
        app.cameras.profile = Profile(face_sets=(FaceSet(
            "dice-forge", labels, tuple((i, (0.0,) * FEATURE_LENGTH)
                                        for i in range(len(labels))), 1.0),))
        screen.refresh()
        yield 1
        assert "camera" in screen.buttons  # "Read the camera" offered now
        app.on_settled_roll(reading)
        yield 2
        # the golem's fork comes before or after the sun but ends the same: no question
        assert not s.game.order_matters(f"{ana.name}: Rolled {faces[0]}, {faces[1]}"), faces
        assert [e.call for e in s.game.history] == [f"{ana.name}: Rolled {faces[0]}, "
                                                    f"{faces[1]}"], screen.model.message
        assert screen.prompt_label.text != "Which die first?"

    run_app(app, script)


def _where(widget: Any) -> tuple[int, ...]:
    """Where a widget is on the window, and its size, in whole pixels."""
    x, y = widget.to_window(widget.x, widget.y)
    return (round(x), round(y), round(widget.width), round(widget.height))


def _start(app: Any, d: Any, count: int, **options: Any) -> Generator[int, None, Any]:
    start = app.screens["start"]
    start.choose_game("dice-forge")
    yield 2
    start.set_count(count)
    for key, value in options.items():
        start.choose(key, value)
    yield from tap_start(d, start)
    yield 2
    assert app.sm.current == "game-dice-forge", start.message.text
    return app.game_screen


def test_nothing_moves_under_a_finger(app_dirs: Path) -> None:
    """The faces of a roll keep their places from the first roll to the next (no option
    toggles above them before the first call), and Forge, Perform and Pass keep theirs from
    one hero's action to the next; so does the top bar."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        screen = yield from _start(app, d, 3)
        game = screen.session.game
        bar = [screen.frame.undo, screen.frame.redo, screen.frame.menu]
        top = [_where(b) for b in bar]
        faces = {k: _where(b) for k, b in screen.buttons.items() if k.startswith("die")}
        assert len(faces) == 5, sorted(screen.buttons)  # every player starts with the same dice
        for die in (1, 2):  # the first call: Ana's roll, face by face
            d.tap(screen.buttons[next(k for k in faces if k.startswith(f"die{die}:"))])
            yield 2
        assert game.history and game.state.steps[0].player == "Ben"
        gone = [k for k in faces if k not in screen.buttons]
        assert not gone, f"{gone} disappeared after the first call"
        assert {k: _where(screen.buttons[k]) for k in faces} == faces
        assert [_where(b) for b in bar] == top
        yield from _settle(d, screen, {})
        actions = {k: _where(screen.buttons[k]) for k in ("forge", "feat", "Pass")}
        yield from _tap(d, screen.buttons["Pass"])
        yield from _settle(d, screen, {})
        assert game.state.current.name == "Ben"
        assert {k: _where(screen.buttons[k]) for k in actions} == actions
        assert [_where(b) for b in bar] == top

    run_app(app, script)


def test_faces_are_pictures_and_words_on_request(app_dirs: Path) -> None:
    """A roll's faces and the faces up on every panel are pictures (the face's words kept
    with each); Menu -> Faces as words shows the words instead."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        screen = yield from _start(app, d, 2)
        faces = {k: b for k, b in screen.buttons.items() if k.startswith("die")}
        for key, b in faces.items():
            assert b.painter.face == b.face == key.split(":", 1)[1]
            assert b.text == "" and len(b.canvas.after.children) > 4, key  # drawn, no words
        for panel in screen.panels.values():
            assert all(len(v.canvas.after.children) > 4 for v in panel.die_views)
        d.tap(screen.frame.menu)
        yield 2
        d.tap(screen.frame.menu_buttons["Faces as words"])
        yield 2
        for key, b in screen.buttons.items():
            if key.startswith("die"):
                assert b.text == key.split(":", 1)[1] and not b.canvas.after.children, key
        for panel in screen.panels.values():
            assert not any(v.canvas.after.children for v in panel.die_views)
        d.tap(screen.frame.menu)
        yield 2
        d.tap(screen.frame.menu_buttons["Faces as pictures"])
        yield 2
        assert all(b.text == "" for k, b in screen.buttons.items() if k.startswith("die"))

    run_app(app, script)


def test_refusals_show_under_the_prompt_and_only_live_choices_wear_the_accent(
        app_dirs: Path) -> None:
    """A refused call shows the engine's reason right under the prompt, whole, at the
    hint's size; the accent (the primary colour) is only ever on a button that can be
    tapped: Forge stays plain until a face is in the basket."""
    from companion import theme
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, cut_text, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def accented(screen: Any) -> list[str]:
        return [k for k, b in screen.buttons.items()
                if list(b.background_color) == list(theme.ACCENT)]

    def script(d: Driver) -> Generator[int | None, None, None]:
        screen = yield from _start(app, d, 2)
        session = screen.session
        assert session.try_call("Ana: Pass") is None  # the dice are rolled first
        yield 3
        from kivy.utils import escape_markup

        why = screen.model.message
        label = screen.message_label
        assert why and escape_markup(why) in label.text, (why, label.text)
        assert label.font_size >= app.fs(15) * 0.7 - 0.01 and label._wanted >= app.fs(15)
        assert cut_text(label) is None
        assert label.y >= screen.content.top - 1  # above the faces, under the prompt
        yield from _settle(d, screen, {"Ana": ("1 gold", "1 gold"), "Ben": ("1 gold", "1 gold")})
        assert screen.model.message == ""  # the next call read it
        yield from _tap(d, screen.buttons["forge"])
        assert all(not screen.buttons[k].disabled for k in accented(screen)), accented(screen)
        assert screen.buttons["forge-now"].disabled and "forge-now" not in accented(screen)
        face = next(k for k, b in screen.buttons.items() if k.startswith("buy:")
                    and not b.disabled)
        yield from _tap(d, screen.buttons[face])
        over = next(k for k, b in screen.buttons.items() if k.startswith("over:")
                    and not b.disabled)
        yield from _tap(d, screen.buttons[over])
        assert accented(screen) == ["forge-now"] and not screen.buttons["forge-now"].disabled

    run_app(app, script)


def test_words_not_slugs_and_plurals(app_dirs: Path) -> None:
    """What a player reads (the screen, Menu's Sanctuary, feats and board, the start screen's
    options) holds no slug (rebellion_a, per_forged, M1) and says "1 feat", "1 shard"."""
    import re

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    slug = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[MF][1-8]\b|\b1 (feats|shards|glory points)\b")

    def texts(widget: Any) -> list[str]:
        return [t for w in widget.walk() if (t := str(getattr(w, "text", "") or ""))]

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        seen = [w for spin in start.option_spins.values() for w in spin.values]
        for module in ("titans", "goddess"):
            screen = yield from _start(app, d, 3, module=module)
            seen += texts(screen)
            for look in (screen.look_sanctuary, screen.look_feats, screen.look_board):
                view = look()
                yield 2
                seen += texts(view)
                view.dismiss(animation=False)
                yield 1
            yield from _settle(d, screen, {})
            if not screen.buttons["feat"].disabled:
                yield from _tap(d, screen.buttons["feat"])
                seen += texts(screen)
            app.end_game()
            yield 2
        bad = sorted({t for t in seen if slug.search(t)})
        assert not bad, bad

    run_app(app, script)
