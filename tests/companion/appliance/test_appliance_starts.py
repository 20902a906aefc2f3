"""Crash loops back off, then say what failed (companion.appliance.starts), in a temporary log
folder as the appliance keeps it on the data folder."""

from __future__ import annotations

import logging
from pathlib import Path

from companion.appliance.starts import (
    GIVE_UP_AFTER,
    LOG_FILE,
    STARTS_FILE,
    Starts,
    backoff_s,
    failure_text,
    last_lines,
    log_to_file,
)


def test_each_crash_in_a_row_waits_longer_then_the_app_gives_up(tmp_path: Path) -> None:
    delays = []
    for _ in range(GIVE_UP_AFTER + 2):
        starts = Starts.load(tmp_path)
        delays.append(starts.begin(now=1000.0))
        if starts.given_up:
            break
        starts.end("crashed: RuntimeError: no camera")
    assert delays == [0.0, 3.0, 6.0, 12.0, 24.0, 48.0]
    assert starts.crashes == GIVE_UP_AFTER and starts.given_up
    assert starts.previous == "crashed: RuntimeError: no camera"


def test_a_start_that_never_said_how_it_ended_is_a_crash(tmp_path: Path) -> None:
    """Killed by the watchdog, or a crash in native code: the record still says running."""
    Starts.load(tmp_path).begin()
    again = Starts.load(tmp_path)
    assert again.begin() == 3.0 and again.crashes == 1


def test_a_healthy_or_clean_run_starts_the_count_again(tmp_path: Path) -> None:
    for outcome in ("healthy", "ended"):
        starts = Starts.load(tmp_path)
        starts.crashes = 3
        starts.end(outcome)
        assert Starts.load(tmp_path).begin() == 0.0


def test_try_again_clears_the_count_and_a_damaged_record_never_stops_the_app(
        tmp_path: Path) -> None:
    starts = Starts.load(tmp_path)
    starts.crashes = GIVE_UP_AFTER
    starts.end("gave up")
    assert Starts.load(tmp_path).given_up  # a restart of the failure screen shows it again
    starts.reset()
    assert not Starts.load(tmp_path).given_up
    (tmp_path / STARTS_FILE).write_text("{not json")
    assert Starts.load(tmp_path).begin() == 0.0
    assert backoff_s(40) == 60.0


def test_the_failure_screen_says_what_failed_with_the_log_tail(tmp_path: Path) -> None:
    handler = log_to_file(tmp_path)
    assert handler is not None
    try:
        for n in range(30):
            logging.getLogger("companion.test").warning("line %d", n)
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
    lines = last_lines(tmp_path, 5)
    assert len(lines) == 5 and lines[-1].endswith("companion.test: line 29")
    starts = Starts.load(tmp_path)
    starts.end("crashed: OSError: [Errno 19] No such device")
    for _ in range(GIVE_UP_AFTER):
        starts.begin()
        starts.end("crashed: OSError: [Errno 19] No such device")
    starts = Starts.load(tmp_path)
    starts.begin()
    text = failure_text(starts, lines)
    assert f"failed to start {starts.crashes} times in a row" in text
    assert "The last start: crashed: OSError: [Errno 19] No such device." in text
    assert str(tmp_path / LOG_FILE) in text and "line 29" in text and "Try again" in text
    assert "last start" in starts.describe() and "crashes in a row" in starts.describe()


def test_a_log_folder_that_cannot_be_written_never_stops_the_app(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the log folder should be")
    starts = Starts.load(blocked)
    assert starts.begin() == 0.0  # no OSError
    starts.end("ended")
    assert log_to_file(blocked) is None
    assert last_lines(blocked) == []
