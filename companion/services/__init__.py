"""The app's services: each one part of what the app does at the table, composed by
:mod:`companion.compose` and wired by :class:`companion.app.AppCore`; none knows a screen or
a game.

- :mod:`companion.services.camera`: the camera the table chose, read with its calibration,
  running while the game reads dice, and whose rolls count (a stand-in's never do);
  :mod:`companion.services.feed` its worker thread (frames -> readings -> settled rolls) and
  :mod:`companion.services.standin` the stand-in camera's dice.
- :mod:`companion.services.music`: the round's soundtrack and the announcer.
- :mod:`companion.services.seats`: the arcade buttons and the seats' lights.

The roll log kept during play is :mod:`companion.history.recorder` (beside the roll log).
"""
