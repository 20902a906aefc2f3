"""The History screen on the table (Kivy): every game, one game call by call, statistics drawn
as charts, the dice's fairness, and export to a folder the players can reach.

Opened from the start screen's "History" button (``app.show("history")``, built the first
time: :class:`companion.contract.AppScreens`; it sees the app as an
:class:`~companion.contract.AppHost`). Four tabs under one pair of filters (a game, a
player; touch only):

- **Games**: every game, newest first, 10 to a page: game, winner (or "unfinished"), date,
  players, length and calls. A tap opens one: its final standings, then call by call
  (forwards, back, or a jump with the slider), and "Resume" when it is unfinished.
- **Players**: games, wins, win rates and streaks; a chart of win rates (one player: per
  game), or of scores game after game once a game is chosen.
- **Per game**: plays, length, players, winning scores; a chart of lengths, or, for one game,
  of each character / tribe / objective / card played and won.
- **Dice**: each group of dice the camera read, its face shares with 95% intervals and the
  fairness verdict in words.

Everything that reads the journal runs on the screen's own thread (:class:`Worker`: the
index's refresh, a page of games, the statistics, a replay) and comes back through
``Clock.schedule_once``; exports and the dice verdicts run on a second thread. The dice
verdicts are worked out by ``companion stats --dice --json`` in a child process, so the app
never loads scipy (~28 MB); the charts are drawn with Kivy's own graphics
(:mod:`companion.history.drawn`), so it never loads matplotlib (~50 MB). Both measured:
docs/history.md.

Its parts, one module each: :mod:`.frame` (:class:`HistoryScreen`: the top bar, the filters,
the tabs, entering and leaving), :mod:`.pages` (what the pages share), :mod:`.games` (the list
of games), :mod:`.replay` (one game, call by call), :mod:`.statistics` (the Players and Per
game tabs), :mod:`.dice` (the Dice tab), :mod:`.export` (the export panel), :mod:`.rows`
(the rows, the scrolling panes and the words they show) and :mod:`.worker` (the threads).

Import this package only after Kivy's environment is set (see ``companion.commands.start``).
"""

from companion.history.screen.frame import HistoryScreen

__all__ = ["HistoryScreen"]
