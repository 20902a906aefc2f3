"""The real table wired in, through the real app: the camera the players configure is the one
used (COMPANION_CAMERA reaches the dice view and the game), rendered dice shown for want of a
camera never enter a game, the sound follows [audio] and COMPANION_AUDIO, and damaged files on
disk give a notice while the app still reaches its start screen."""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def _replay_folder(folder: Path) -> Path:
    """A tray filmed as images: empty, then one die thrown in that comes to rest showing 6."""
    import cv2

    from companion.services.standin import ThrownDice
    from vision.synthetic import SynthDie

    folder.mkdir(parents=True)
    tray = ThrownDice(fps=15.0)
    for i in range(40):
        if i == 6:
            tray.throw([SynthDie(center=(320.0, 240.0), size=70.0, angle=12.0, value=6,
                                 colour="white")])
        cv2.imwrite(str(folder / f"f{i:03d}.png"), tray.read().image)
    return folder


def test_companion_camera_reaches_the_dice_view_and_the_game(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    tray = _replay_folder(app_dirs / "tray")
    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    # realtime = false: every frame is read, however loaded the machine (no frame skipped)
    (app_dirs / "config" / "config.toml").write_text(
        "[camera]\nloop = true\nfps = 15\nrealtime = false\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{tray}?hold=0")  # a film: frame by frame
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    assert app.camera is not None and app.camera.rolls_count
    assert app.camera.label == f"replay of {tray}"

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and app.game_screen is not None
        assert app.game_screen.camera_on  # a camera whose rolls count reads from the start
        for _ in range(4000):  # the camera reads Ana's roll-off die by itself (slow when loaded)
            if s.game.history:
                break
            yield 1
        assert s.game.history and s.game.history[0].call == "Ana: Roll 6"
        app.show("dice")
        for _ in range(300):
            if app.screens["dice"].frames:
                break
            yield 1
        assert app.screens["dice"].status.text.startswith(f"replay of {tray}")

    run_app(app, script, timeout=180)


def test_rendered_dice_shown_for_want_of_a_camera_never_enter_a_game(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Settings name a webcam that is not there: the picture is the stand-in's, it says
    so, and none of its rolls reach the game (Occulites' Camera button refuses it too)."""
    import cv2

    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Reading

    class NoWebcam:
        def __init__(self, *_: object) -> None:
            pass

        def isOpened(self) -> bool:
            return False

        def release(self) -> None:
            pass

    monkeypatch.setattr(cv2, "VideoCapture", NoWebcam)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(camera="opencv:5"))
    rolls: list[Reading] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.show("dice")
        for _ in range(300):
            if app.screens["dice"].frames:
                break
            yield 1
        assert app.camera is not None and app.camera.stand_in and not app.camera.rolls_count
        assert app.screens["dice"].status.text.startswith("rendered dice, no camera")
        app.back()
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        scr = app.game_screen
        assert scr is not None and app.table is not None
        real_on_roll = app.table.on_roll
        app.table.on_roll = lambda reading: (rolls.append(reading), real_on_roll(reading))
        d.tap(scr.tribe_buttons["Palaudis"])
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])
        yield 1
        snap = app.camera.latest()
        assert snap is not None
        app.on_settled_roll(snap.reading)  # a settled roll of rendered dice
        yield 1
        d.tap(scr.read_button)
        yield 1
        assert "rendered dice, no camera" in scr.message.text
        assert app.session is not None and app.session.game.state.lineups == {}

    run_app(app, script, timeout=120)
    assert rolls == []


def test_the_sound_follows_the_config_and_companion_audio(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    (app_dirs / "config" / "config.toml").write_text(
        '[audio]\nbackend = "kivy"\nvolume = 0.3\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_AUDIO", "silent")  # before [audio] backend
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    assert app.sounds.backend.name == "silent" and app.sounds.volume == 0.3

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        d.tap(start.start_button)
        yield 2
        d.tap(app.screens["arena"].go)  # Yarra Mark!
        yield 2
        played = app.sounds.load("yarra_mark")
        assert "yarra_mark" in app.heard and played.volume == 0.3  # type: ignore[attr-defined]
        app.show("settings")
        yield 1
        page = app.screens["settings"]
        page.volume.text = "50%"  # the Settings' volume comes before the config's
        page.save()
        yield 1
        assert app.sounds.volume == 0.5 and app.sounds.load("hit").volume == 0.5  # type: ignore[attr-defined]

    run_app(app, script)


def test_damaged_files_give_a_notice_and_the_app_reaches_its_start_screen(
        app_dirs: Path) -> None:
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from rules import Entry

    cfg = app_dirs / "config"
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.toml").write_bytes(b"\xff\xfe not text")
    (cfg / "config.toml").write_text("[camera\n", encoding="utf-8")
    (cfg / "profiles").mkdir()
    (cfg / "profiles" / "den.json").write_text("{", encoding="utf-8")
    (cfg / "current-profile").write_text("den\n", encoding="utf-8")
    journal_file = app_dirs / "j.sqlite3"
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3)
    with Journal(journal_file) as j:
        gid = j.start_game(game.setup, "edited")
        j.record_call(gid, Entry("Ana: Roll 6"))
        j.db.execute("UPDATE calls SET call='Ana: Juggle' WHERE game_id=?", (gid,))
        other = j.start_game(game.setup, "chess?")
        j.db.execute("UPDATE games SET setup=? WHERE id=?",
                     (json.dumps({**game.setup.to_json(), "game": "chess"}), other))
    app = CompanionApp(clock=ManualClock(), journal_file=journal_file)
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 3
        assert app.sm.current == "start"
        assert start.notice is not None and start.notice.parent is not None
        said = start.notice_text.text
        seen["said"] = said
        shots = Path(os.environ.get("NOTICE_SHOTS", str(app_dirs / "shots")))
        d.screenshot(shots / "15-start-notice.png")
        for what in ("settings.toml", "not UTF-8", "config.toml", "not valid TOML",
                     "den", f"Game {gid} cannot be resumed", "'Ana: Juggle'",
                     f"Game {other} cannot be resumed", "unknown game 'chess'"):
            assert what in said, what
        assert start.resume_button.disabled  # neither game is offered
        d.tap(next(w for w in start.notice.walk() if getattr(w, "text", "") == "OK"))
        yield 1
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)  # and a new game starts as usual
        yield 2
        assert app.session is not None

    run_app(app, script)
    assert (cfg / "config.toml").read_text(encoding="utf-8") == "[camera\n"  # untouched
    assert list(cfg.glob("settings.toml.damaged-*"))  # kept aside
    assert os.path.exists(app_dirs / "cannot-resume" / f"game-{gid}.game")  # beside the journal
