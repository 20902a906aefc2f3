"""The `companion` command's table of commands: every command module is in it, each parses."""

from __future__ import annotations

import pkgutil

import pytest

from companion import commands
from companion.cli import COMMANDS, DEFAULT, build_parser, main


def test_every_command_module_is_declared_once() -> None:
    modules = {m.name.replace("_", "-") for m in pkgutil.iter_modules(commands.__path__)
               if not m.name.startswith("_")}
    assert set(COMMANDS) == modules
    assert DEFAULT in COMMANDS
    for name, command in COMMANDS.items():
        assert command.HELP.strip() and "\n" not in command.HELP, name


def test_help_lists_every_command_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for name, command in COMMANDS.items():
        assert name in out and command.HELP[:30] in " ".join(out.split()), name


def test_each_command_parses_and_runs_its_own_function(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    args = build_parser().parse_args(["tournament", "--tournament", "t1", "standings"])
    assert args.command == "tournament" and args.tournament == "t1"
    # the demo's own run answers a bad size (before it loads Kivy)
    assert main(["demo", "--size", "big"]) == 2
    assert "companion demo: --size 'big'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["nosuch"])
    assert done.value.code == 2
    assert "invalid choice: 'nosuch'" in capsys.readouterr().err


def test_options_without_a_command_go_to_start(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`./start.sh --camera replay:DIR` passes `--camera replay:DIR` to `companion`: the
    options are start's (it said "invalid choice: 'replay:DIR'" and needed `start` first)."""
    from companion.cli import parse_args

    args = parse_args(["--camera", "replay:photos", "--size", "1024x600"])
    assert (args.command, args.camera, args.size) == ("start", "replay:photos", "1024x600")
    assert parse_args([]).command == "start"
    assert parse_args(["history", "--limit", "3"]).command == "history"
    # run for real: start itself answers (a display is said to be there, and the camera it
    # is given is no camera, which start refuses before it loads Kivy)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["--camera", "nosuch:1"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" not in err and "companion: --camera 'nosuch:1'" in err
