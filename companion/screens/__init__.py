"""The app's own screens (Kivy), shared by every game, one module each: ``start`` (a new game;
its unfinished games are ``unfinished``, its start-up notice ``notice``), ``settings``, and
``dice`` (the live dice view); ``lists`` holds the list that opens over a screen.

Import them only after Kivy's environment is set (see ``companion.commands.start``); the
composition root (``companion.compose``) gives them to the app, which imports none of them.
"""
