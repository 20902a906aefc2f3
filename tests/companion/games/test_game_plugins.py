"""Every game declares itself to the app the same way, and listing them stays cheap."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields

import pytest

import rules
from companion.contract import GamePlugin
from companion.games import playable_games, plugins


def test_all_five_games_have_a_plugin_of_the_same_shape() -> None:
    found = plugins()
    assert list(found) == rules.game_names()
    for name, plugin in found.items():
        assert isinstance(plugin, GamePlugin) and plugin.name == name
        if not plugin.buttons.used:
            assert plugin.title in plugin.buttons.note  # the players are told, by the game
        options = {f.name for f in fields(rules.game_class(name).Options)}
        for option in plugin.options:
            assert option.key in options, (name, option.key)
            assert len({w for _, w in option.choices}) == len(option.choices)
            for _, words in option.choices:  # every choice is one the engine takes
                chosen = option.options(words)
                if chosen.get("mode") == "alliances":
                    chosen["teams"] = [["Ana", "Ben"], ["Cy", "Dee"]]
                rules.new_game(name, ["Ana", "Ben", "Cy", "Dee"], chosen)


def test_listing_the_games_does_not_load_kivy() -> None:
    code = ("import sys; from companion.games import plugins; plugins(); "
            "print('kivy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def test_the_games_are_found_once_and_cannot_be_changed_by_a_caller() -> None:
    """plugins() scans the packages at its first call only (the app asks it a dozen times);
    what it gives cannot be changed by one caller for the others."""
    assert plugins() is plugins()
    assert playable_games() == list(plugins()) == rules.game_names()
    with pytest.raises(TypeError):
        plugins()["another"] = plugins()["occulites"]
