"""The app's side of a tournament: what the Tournament screen shows and does, without widgets.

One :class:`TournamentHub` per app (``app.tournaments``, made when the app starts by the
composition root, :mod:`companion.compose`; it sees the app as an
:class:`~companion.contract.AppHost`). It holds

- **the director's desk** (:class:`~companion.tournament.desk.TournamentDesk`) of the current
  tournament in the journal's file, and its :class:`~companion.tournament.service.TournamentService`
  (broker, director, standings page) while the organiser has it served;
- **the table's link** (:class:`~companion.tournament.table.TableClient`) when this companion
  joined a tournament as a table: its seating, its outbox and the state of each report.

It listens to the app's session changes (:meth:`~companion.contract.AppHost.listen`; never to
a game's screens): when a game comes to the table already over, or a call ends one, that is the
table's seated game, it is reported through the outbox; when it is a game of the director's own
round played at this very table (one box), it is recorded on the desk. A game that ended while
the link was down (a power cut between the last call and the report) is found in the journal
and reported when the link is back.

Threads: the broker, the director and the table client call back from network threads; the hub
hands every such call to Kivy's main thread with ``Clock.schedule_once``, and starting or
stopping the service (seconds: a broker process, a connection) runs on a worker thread. Only
the main thread calls the hub's methods.

A restart (or a power cut) resumes exactly: the tournament is rebuilt from its journaled
events, a service that was serving serves again, and a table rejoins with the code it kept.
Where each part lives: :mod:`~companion.tournament.hub.core` (the state, the stores, telling
the screens, the journal's games), :mod:`~companion.tournament.hub.organiser` (the desk and
serving), :mod:`~companion.tournament.hub.table_link` (the table's link, its reports, scanning
a join code) and :mod:`~companion.tournament.hub.watching` (the whole hub: start, stop, and
watching the app's game).
"""

from __future__ import annotations

from companion.tournament.hub.core import game_key
from companion.tournament.hub.organiser import known_names
from companion.tournament.hub.table_link import ReportState
from companion.tournament.hub.watching import TournamentHub

__all__ = ["ReportState", "TournamentHub", "game_key", "known_names"]
