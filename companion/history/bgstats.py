"""The games as BG Stats takes them (each field documented against BG Stats in
docs/history.md).

- :func:`bgstats_play`: one finished game as the play a BG Stats ``createPlay`` link carries
  (the JSON form BG Stats documents for pushing plays from other apps); :func:`bgstats_link`
  is that link (the app shows it as a QR code at the end of a game); :func:`bgstats_plays`:
  every game that is over, as such plays.
- :func:`bgstats_export`: the games in BG Stats' own export file shape (``players``,
  ``locations``, ``games``, ``plays`` with ids and ``playerScores``); :func:`bgstats_text`
  writes that file, or a page of import links to open on the phone.
"""

from __future__ import annotations

import html
import json
import time
import urllib.parse
import uuid
from collections.abc import Iterable
from typing import Any

from companion.history.summary import GameSummary, game_title, plain_number, player_key

#: Where BG Stats takes a play from another app (its documented import link).
BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
#: What the companion calls itself in exported plays (BG Stats' ``sourceName``: the app the
#: plays come from, which it remembers its matches of games and players for).
SOURCE_NAME = "Table companion"
#: BoardGameGeek ids of the games that have one (BG Stats matches games by them). Dice Forge's
#: is its BGG page's (boardgamegeek.com/boardgame/194594/dice-forge); no BGG page was found
#: for the others, so they carry none and BG Stats matches them by name.
BGG_IDS = {"dice-forge": 194594}
#: The namespace of the uuids in BG Stats export files (uuid5 of the play's sourcePlayId, a
#: player's name...), so that the same play exported twice has the same uuid.
_UUIDS = uuid.UUID("4f0c3a52-8d1e-5b7a-9c26-3e1f7a0b9d44")


def play_id(g: GameSummary) -> str:
    """The play's id for BG Stats (``sourcePlayId``): the game's content digest, the same for
    this game on every companion it is imported into, so a play pushed or imported twice is
    recognised as one."""
    return f"tc-{g.digest or g.id}"


def play_date(g: GameSummary) -> str:
    """When the game ended (its last call, else its start), in UTC, as BG Stats writes dates:
    ``YYYY-MM-DD HH:MM:SS``."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(g.ended or g.started))


def _comments(g: GameSummary) -> str:
    """The play's comment, whole, with only what the players wrote or would want: the
    game's title when one was given (not the list of players the app titles a game with),
    how it ended when the players ended it, and the teams. Never the companion's own
    bookkeeping (calls, its game numbers) nor the standings' notes, which BG Stats' own
    fields say (winners, ranks, scores)."""
    from companion.ending import AGREED, NO_RESULT

    said = []
    if g.title and g.title != ", ".join(g.names):
        said.append(g.title)
    if g.ending == AGREED:
        said.append("Ended by agreement: the standings then are the result")
    elif g.ending == NO_RESULT:
        said.append("Ended by agreement with no result")
    teams = sorted({p.team for p in g.players if p.team})
    if teams:
        said.append("Teams: " + "; ".join(
            f"{t} ({', '.join(p.player for p in g.players if p.team == t)})" for t in teams))
    return ". ".join(said)


def _duration_min(g: GameSummary) -> int:
    return 0 if g.duration is None else max(1, round(g.duration / 60))


def bgstats_play(g: GameSummary) -> dict[str, Any]:
    """One game as the play a BG Stats ``createPlay`` link carries (the fields BG Stats
    documents for pushing plays from other apps; each one in docs/history.md)."""
    # Optional fields that would only repeat BG Stats' defaults (an empty board or role, no
    # start player, points kept) are left out: the link is shown as a QR code, and a shorter
    # one has larger modules that a phone reads from a small screen.
    game: dict[str, Any] = {"name": game_title(g.game), "sourceGameId": g.game,
                            "highestWins": True}
    if all(p.score is None for p in g.players):
        game["noPoints"] = True
    if g.game in BGG_IDS:
        game["bggId"] = BGG_IDS[g.game]
    players = []
    for p in g.players:
        one: dict[str, Any] = {"name": p.player, "sourcePlayerId": p.player.casefold(),
                               "winner": p.won}
        if p.score is not None:
            one["score"] = plain_number(p.score)
        if p.rank is not None:
            one["rank"] = p.rank
        if p.role:
            one["role"] = p.role
        players.append(one)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(g),
        "playDate": play_date(g),
        "durationMin": _duration_min(g),
    }
    if g.variant:
        play["board"] = g.variant
    comments = _comments(g)
    if comments:
        play["comments"] = comments
    return {**play, "game": game, "players": players}


def _uuid(*parts: object) -> str:
    return str(uuid.uuid5(_UUIDS, "\x1f".join(str(p) for p in parts))).upper()


def bgstats_export(games: Iterable[GameSummary]) -> dict[str, Any]:
    """The plays (games that are over) in BG Stats' own export file shape: ``players``,
    ``locations``, ``games`` and ``plays``, each with an ``id`` (or ``uuid``) the others refer
    to (``playerRefId``, ``gameRefId``); a play's ``playerScores`` one per seat. Uuids are
    derived from the play's ``sourcePlayId`` and the names, so exporting again gives the same
    file. Fields in docs/history.md."""
    plays = [g for g in games if g.is_over and g.error is None]
    player_ids: dict[str, int] = {}
    players: list[dict[str, Any]] = []
    game_ids: dict[str, int] = {}
    game_rows: list[dict[str, Any]] = []
    out_plays: list[dict[str, Any]] = []
    for g in plays:
        if g.game not in game_ids:
            game_ids[g.game] = len(game_ids) + 1
            game_rows.append({
                "id": game_ids[g.game], "uuid": _uuid("game", g.game),
                "name": game_title(g.game), "bggId": BGG_IDS.get(g.game, 0),
                "sourceGameId": g.game, "highestWins": True,
                "noPoints": all(p.score is None for p in g.players), "cooperative": False,
                "usesTeams": any(p.team for p in g.players)})
        scores = []
        for p in g.players:
            key = player_key(p.player)
            if key not in player_ids:
                player_ids[key] = len(player_ids) + 1
                players.append({"id": player_ids[key], "uuid": _uuid("player", key),
                                "name": p.player, "isAnonymous": False})
            scores.append({"playerRefId": player_ids[key],
                           "score": "" if p.score is None else str(plain_number(p.score)),
                           "winner": p.won, "rank": p.rank or 0, "seatOrder": p.seat + 1,
                           "startPlayer": False, "newPlayer": False, "role": p.role or "",
                           "team": p.team or ""})
        out_plays.append({
            "uuid": _uuid("play", play_id(g)), "sourcePlayId": play_id(g),
            "playDate": play_date(g), "durationMin": _duration_min(g),
            "gameRefId": game_ids[g.game], "ignored": False, "manualWinner": False,
            "rounds": 0, "board": g.variant, "usesTeams": any(p.team for p in g.players),
            "comments": _comments(g), "playerScores": scores})
    return {"players": players, "locations": [], "games": game_rows, "plays": out_plays}


def bgstats_plays(games: Iterable[GameSummary]) -> list[dict[str, Any]]:
    """Every game that is over, as BG Stats plays (unfinished games are not plays yet)."""
    return [bgstats_play(g) for g in games if g.is_over and g.error is None]


def bgstats_link(play: dict[str, Any]) -> str:
    """The import link BG Stats opens: the play as URL-encoded JSON."""
    # ':' and ',' may stay as they are in a query: a shorter link, a coarser QR code
    return BGSTATS_LINK + urllib.parse.quote(json.dumps(play, separators=(",", ":")),
                                             safe=":,")


def bgstats_text(games: Iterable[GameSummary], page: bool) -> tuple[str, int]:
    """The plays as a BG Stats export file (:func:`bgstats_export`), or (``page``) as a page
    with one import link per play to open on the phone that has BG Stats; (text, plays)."""
    games = list(games)
    plays = bgstats_plays(games)
    if not page:
        return json.dumps(bgstats_export(games), indent=1, ensure_ascii=False) + "\n", \
            len(plays)
    items = "\n".join(
        f'<li><a href="{html.escape(bgstats_link(p))}">{html.escape(p["playDate"])} '
        f'{html.escape(p["game"]["name"])}: '
        f'{html.escape(", ".join(q["name"] for q in p["players"]))}</a></li>'
        for p in plays)
    return ("<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
            "content=\"width=device-width\">\n<title>Plays for BG Stats</title>\n"
            f"<h1>{len(plays)} plays for BG Stats</h1>\n<p>Tap a play on the phone or tablet "
            "that has BG Stats: it opens the app's import dialog.</p>\n"
            f"<ol>\n{items}\n</ol>\n"), len(plays)
