"""A damaged settings file and a damaged journal do not stop the app (a notice says what
happened, the damaged journal is kept aside); the live dice view beside the arena."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

pytestmark = pytest.mark.app


def test_bad_settings_file_then_the_dice_picture_beside_the_arena(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.uix.modalview import ModalView

    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    settings_file = app_dirs / "settings.toml"
    settings_file.write_text('camera = "synthetic"\nvolume = 0.8\ndice_view = "besi', "utf-8")
    junk = bytes(range(256)) * 16  # a journal file damaged beyond reading
    (app_dirs / "j.sqlite3").write_bytes(junk)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings_file=settings_file)
    aside = list(app_dirs.glob("j.sqlite3.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == junk  # kept, not deleted
    assert app.settings == settings_mod.Settings()  # the defaults, not a crash
    shots = Path(os.environ.get("PICTURE_SHOTS", str(app_dirs / "shots")))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        assert start.notice is not None and start.notice.parent is not None  # on screen
        said = start.notice_text.text
        assert "settings file" in said and "settings.toml could not be used: not valid TOML" in said
        assert "kept as settings.toml.damaged-" in said
        assert f"set aside as {aside[0].name}" in said and "file is not a database" in said
        assert start.message.text == "Started with a problem: see the notice"
        d.tap(next(w for w in start.notice.walk() if getattr(w, "text", "") == "OK"))
        yield 1
        from kivy.core.window import Window

        assert not any(isinstance(w, ModalView) for w in Window.children)  # all gone
        assert start.message.text == ""
        assert "settings" not in app.screens  # built when first opened (its memory)
        app.show("settings")
        yield 1
        page = app.screens["settings"]
        assert app.sm.current_screen is page
        page.dice_view.text = "beside the arena"
        page.save()
        yield 1
        assert page.message.text == "Saved." and start.message.text == ""
        assert settings_mod.load(settings_file).dice_view == "beside the arena"
        app.back()
        yield 1
        start.choose_game("eye-for-an-eye")
        yield 1
        d.tap(start.start_button)
        yield 2
        arena = d.arena
        assert app.sm.current == "arena"
        for _ in range(300):  # until a frame with dice on it is shown (the synthetic tray rolls)
            snap = app.camera.latest()
            if arena._picture_frame and snap is not None and snap.reading.dice \
                    and arena._picture_frame == snap.index:
                break
            yield 2
        assert arena._picture_frame > 0 and arena.picture.texture is not None
        assert arena.picture.height == pytest.approx(arena.log_col.width * 0.75)
        d.screenshot(shots / "14-arena-dice-beside.png")
        d.tap(arena.picture)
        yield 2
        assert app.sm.current == "dice"
        app.back()
        yield 2
        assert app.sm.current == "arena"

    run_app(app, script)
