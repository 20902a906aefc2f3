"""What the start screen checks before a game starts, said in players' words (no Kivy).

- :func:`name_problem`: the names typed, one problem at a time, naming the seat and what to
  do ("Player 3 has no name yet: type one ..."), never the engine's wording; a name that holds
  a character that cannot be seen (a zero-width space, a filler, a direction override) is
  refused. :func:`name_warning`: a name that looks like another one (a Cyrillic "Аna" beside
  "Ana"), asked about before the game starts, not refused. Names are taken written one way
  (:func:`tidy`: Unicode's NFC).
- :func:`choices_for`: the choices of a start option that take this many players, and what to
  say about one that does not ("Every Eye for Themselves is for 2 to 4 players"), about the
  choice made for the players instead (:func:`refit`), and about a count no choice takes
  (:func:`none_fits`: Eye for an Eye at 5);
- :func:`team_problem`: teams chosen that Alliances (Eye for an Eye) cannot play, and what the
  players can do about it;
- :data:`BOARDS_NEED_A_CAMERA`, :data:`BOARDS_NEED_ZONES`: why the camera cannot fill the
  boards, naming the start screen's choice that plays without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import rules
from companion.contract import StartOption
from companion.names import disguised, warning
from rules.core import check_player_name
from rules.eye_for_an_eye.game import ALLIANCE_TEAMS
from rules.names import invisible, normal

#: The longest name the table's screens show whole (the engine takes longer ones).
SCREEN_NAME_CHARS = 16


def name_problem(names: Sequence[str], most: int = SCREEN_NAME_CHARS) -> str | None:
    """The first problem with the names as typed (seat order), in players' words; None when
    every seat has a name the game takes."""
    seen: dict[str, int] = {}
    for seat, raw in enumerate(names, start=1):
        name = tidy(raw)
        if not name:
            return (f"Player {seat} has no name yet: type one (the grey \"player {seat}\" in "
                    "the box is only a hint).")
        if len(name) > most:
            return (f"\"{name}\" is {len(name)} characters long: names of at most {most} fit "
                    "the table's screen. Shorten it, or use a nickname.")
        hidden = invisible(name)
        if hidden:
            return (f"The name of player {seat} holds {hidden}: type the name again (it "
                    "would look like another name).")
        if not name[0].isalpha():
            return f"\"{name}\" (player {seat}): a name starts with a letter."
        try:
            check_player_name(name)
        except rules.SetupError:
            return (f"\"{name}\" (player {seat}): use letters, digits, spaces, ' - and . "
                    "only.")
        key = name.casefold()
        if key in seen:
            return (f"Players {seen[key]} and {seat} are both called {name}: give each a "
                    "different name (an initial will do).")
        seen[key] = seat
    return None


#: The words of the start screen's Boards choices (Eye for an Eye).
BOARDS_CAMERA = "read by the camera"
BOARDS_BY_HAND = "kept by the players"
BOARDS_NEED_A_CAMERA = ("The camera can fill the boards only when there is one: choose a camera "
                        f"in Settings, or Boards: \"{BOARDS_BY_HAND}\".")
BOARDS_NEED_ZONES = ("The camera cannot read the boards yet: no board spaces are marked on its "
                     f"picture. Choose Boards: \"{BOARDS_BY_HAND}\" to play now; marking the "
                     "spaces is a setup step (./start.sh calibrate zones, see "
                     "docs/calibration.md).")

_COUNT_WORDS = {2: "two", 3: "three"}


def _teams_of(sizes: Sequence[int]) -> str:
    """(2, 2, 2) -> "three teams of 2" (teams of one size)."""
    return f"{_COUNT_WORDS.get(len(sizes), str(len(sizes)))} teams of {sizes[0]}"


def team_problem(teams: Mapping[str, Sequence[str]]) -> str | None:
    """What is wrong with the teams chosen for Alliances (team -> its players), in players'
    words; None when Alliances can be played with them."""
    sizes = tuple(sorted(len(players) for players in teams.values()))
    if sizes in ALLIANCE_TEAMS:
        return None
    count = sum(sizes)
    ways = [_teams_of(shape) for shape in ALLIANCE_TEAMS if sum(shape) == count]
    if not ways:
        counts = sorted({sum(shape) for shape in ALLIANCE_TEAMS})
        every = ", ".join(_teams_of(shape) for shape in ALLIANCE_TEAMS)
        return (f"Alliances is for {' or '.join(map(str, counts))} players ({every}), not "
                f"{count}: one more player joins, or one sits out.")
    now = "; ".join(f"{team}: {', '.join(players)}" for team, players in sorted(teams.items()))
    return (f"With {count} players, Alliances is {' or '.join(ways)}. Now {now}. Choose each "
            "player's team beside their name.")


def tidy(name: str) -> str:
    """A name as the game takes it: written one way (NFC: an ``e`` typed with a combining
    accent is ``é``), outer spaces gone, one space between words."""
    return normal(" ".join(name.split()))


def name_warning(names: Sequence[str], known: Iterable[str] = ()) -> str | None:
    """A name typed that looks like another seated one, or like a player of the games
    played here (``known``), but is other text (a Cyrillic "Аna" beside "Ana"): in
    players' words, or None. A warning: the players may start all the same."""
    tidied = [tidy(n) for n in names]
    known = list(dict.fromkeys(known))
    # a name mixing scripts is the one to name first ("Аna" looks like "Ana", not the other
    # way round)
    for seat in sorted(range(1, len(tidied) + 1), key=lambda s: not disguised(tidied[s - 1])):
        name = tidied[seat - 1]
        others = tidied[:seat - 1] + tidied[seat:] + known
        said = warning(name, others, f"Player {seat}'s name")
        if said:
            return said
    return None


def players_words(counts: Sequence[int]) -> str:
    """Numbers of players in words: (2, 3, 4) -> "2 to 4", (4, 6) -> "4 or 6"."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"


def choices_for(option: StartOption, count: int) -> list[str]:
    """The words of the option's choices that take ``count`` players."""
    return [words for value, words in option.choices if fits(option, value, count) is None]


def fits(option: StartOption, value: object, count: int) -> str | None:
    """None when the choice takes ``count`` players, else why not, in words."""
    for v, counts in option.counts:
        if v == value and count not in counts:
            return f"{option.words(value)} is for {players_words(counts)} players"
    return None


def refit(option: StartOption, words: str, count: int) -> tuple[str, str]:
    """The choice to show for ``count`` players when ``words`` is chosen, and what to say
    about it: the same choice and "" when it takes them; else the first that does, and
    why ("Alliances (teams) is chosen for 6: Every Eye for Themselves is for 2 to 4
    players"); when none takes them, the same choice and :func:`none_fits`'s words."""
    why = fits(option, option.value(words), count)
    if why is None:
        return words, ""
    fitting = choices_for(option, count)
    if not fitting:
        return words, none_fits(option, count) or why
    return fitting[0], f"{fitting[0]} is chosen for {count}: {why}."


def none_fits(option: StartOption, count: int) -> str | None:
    """What to say when none of the option's choices takes ``count`` players (Eye for an
    Eye's modes at 5: Every Eye for Themselves is for 2 to 4, Alliances for 4 or 6), naming
    the nearest numbers that can play; None when one does."""
    if not option.counts or choices_for(option, count):
        return None
    takes = sorted({n for _value, counts in option.counts for n in counts})
    nearest = sorted({max((n for n in takes if n < count), default=0),
                      min((n for n in takes if n > count), default=0)} - {0})
    each = "; ".join(f"{option.words(v)} is for {players_words(c)}" for v, c in option.counts)
    # the point first: the start screen's strip may show one line of it at the largest text
    return (f"No {option.label.lower()} takes {count} players: seat "
            f"{' or '.join(map(str, nearest))} to play. {each}.")


__all__ = ["BOARDS_BY_HAND", "BOARDS_CAMERA", "BOARDS_NEED_A_CAMERA", "BOARDS_NEED_ZONES",
           "SCREEN_NAME_CHARS", "choices_for", "fits", "name_problem", "name_warning",
           "none_fits", "players_words", "refit", "team_problem", "tidy"]
