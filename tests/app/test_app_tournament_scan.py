"""A table joins by showing the director's QR code to its camera (the app's own camera feed,
here a replay of a filmed tray: the felt, then the code held under the camera), and shows its
seating at a six-player Dice-ocalypse table in the largest text size."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from tournament_touch import Proc, new_tournament, shots_folder, wait_for, words

pytestmark = pytest.mark.app


def _filmed_code(folder: Path, text: str) -> Path:
    """Frames of the tray: 45 of green felt (3 s at 15 frames a second), then 30 with the QR
    code printed on a white card lying on it."""
    import cv2
    import numpy as np

    from companion.tournament.join import qr_rgb

    folder.mkdir(parents=True)
    felt = np.full((480, 640, 3), (40, 90, 50), np.uint8)
    card = felt.copy()
    code = qr_rgb(text, scale=5)
    h, w = code.shape[:2]
    y, x = (480 - h) // 2, (640 - w) // 2
    card[y - 20:y + h + 20, x - 20:x + w + 20] = 235
    card[y:y + h, x:x + w] = code
    for i in range(75):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), felt if i < 45 else card)
    return folder


def test_a_table_joins_by_showing_the_code_to_its_camera(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.tournament.desk import TournamentDesk
    from companion.tournament.store import TournamentStore

    db, _ = new_tournament(app_dirs / "director", 6, {"game": "dice-ocalypse", "rounds": 2,
                                                       "table-size": 6}, web=False)
    with TournamentStore(db) as store:
        desk = TournamentDesk(store, "tt01")
        desk.draw_next()
        code = desk.join_codes("127.0.0.1")[0]
        seats = desk.tournament.current.table(1).seats
    assert len(seats) == 6
    tray = _filmed_code(app_dirs / "tray", code.text())
    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    (app_dirs / "config" / "config.toml").write_text(
        "[camera]\nloop = true\nfps = 15\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{tray}?hold=0")  # a film: frame by frame
    director = Proc(["tournament", "serve"], app_dirs / "director", "director")
    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "table.sqlite3",
                       settings=settings_mod.Settings(text_size="huge"))
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        director.wait_for("serving tournament tt01")
        app.show("tournament")
        yield 3
        scr = app.screens["tournament"]
        scr.show_page("join")
        yield 2
        join = scr.pages["join"]
        d.tap(join.scan_button)
        yield from wait_for(lambda: join.picture.opacity > 0 and join.picture.texture
                            is not None, "the camera's picture")
        yield 2
        assert scr.page == "join" and join.scanning  # the felt has no code on it
        problems.extend(touch_problems(app.sm.current_screen, (800, 480)))
        d.screenshot(shots / "tournament-screen-join-scan.png")
        hub = app.tournaments
        assert hub is not None
        yield from wait_for(lambda: hub.table is not None, "the code to be read")
        assert hub.table.code == code and scr.page == "seat"
        assert app.camera is not None and "tournament-scan" not in app.camera.wanted
        yield from wait_for(lambda: hub.seating is not None and hub.seating.table == 1,
                            "the seating")
        yield 3
        seat = scr.pages["seat"]
        for i, name in enumerate(seats, 1):
            assert f"Seat {i}: {name}" in words(seat.seats)
        problems.extend(touch_problems(app.sm.current_screen, (800, 480)))
        d.screenshot(shots / "tournament-screen-seat-6-players.png")

    try:
        run_app(app, script, timeout=240)
    finally:
        director.stop()
    assert problems == []
