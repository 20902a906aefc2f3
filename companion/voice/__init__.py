"""Calls heard aloud (docs/voice.md): what a game lets players say, the recogniser, the
listening pipeline and the app's listening service.

Nothing here knows a game's rules: a game's voice module says which phrases mean which calls.
"""
