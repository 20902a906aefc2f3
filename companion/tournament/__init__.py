"""Tournaments across tables: the director's desk and service, the tables' client, the broker
it starts, the standings page. The rules of a tournament are pure logic in `rules.tournament`.

- :class:`~companion.tournament.desk.TournamentDesk`: every organiser action, journaled.
- :class:`~companion.tournament.director.Director`: seatings out, reports in, over MQTT.
- :class:`~companion.tournament.table.TableClient`: a table's join, seatings and outbox.
- :class:`~companion.tournament.broker.Broker`: the tournament's own Mosquitto.
- :mod:`companion.tournament.web`: the read-only standings page.

See docs/tournaments.md.
"""
