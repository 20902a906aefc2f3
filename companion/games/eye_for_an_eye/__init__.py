"""Eye for an Eye at the table: the arena and between-rounds screens, calls by touch or by the
table's buttons, the parry windows, the dice on the boards read by the camera, the seat lights.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import ButtonUse, GamePlugin, Host, StartOption, TableGame, VoiceUse
from companion.startcheck import BOARDS_BY_HAND, BOARDS_CAMERA
from rules.eye_for_an_eye.game import ALLIANCE_TEAMS

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "eye-for-an-eye"


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.eye_for_an_eye.table import EyeTable

    return EyeTable(host, session)


def characters() -> dict[str, str]:
    """Character id -> the name the start screen shows."""
    from rules.eye_for_an_eye.characters import characters as all_characters

    return {cid: c.short for cid, c in all_characters().items()}


OPTIONS = (
    StartOption("mode", "Mode", (("every-eye", "Every Eye for Themselves"),
                                 ("alliances", "Alliances (teams)")),
                counts=(("every-eye", (2, 3, 4)),
                        ("alliances", tuple(sorted({sum(t) for t in ALLIANCE_TEAMS}))))),
    StartOption("rounds", "Rounds", ((None, "one more than players"),
                                     *((n, str(n)) for n in range(1, 8)))),
    StartOption("track_allocation", "Boards", ((False, BOARDS_BY_HAND), (True, BOARDS_CAMERA))),
)


def make_voice(game: object) -> Any:
    """Its calls said aloud (companion/games/eye_for_an_eye/voice.py), imported when heard."""
    from companion.games.eye_for_an_eye.voice import make_voice as make

    return make(game)


PLUGIN = GamePlugin(GAME, "Eye for an Eye", ButtonUse(True), make_table, characters, OPTIONS,
                    voice=VoiceUse(make_voice), loads=("companion.games.eye_for_an_eye.table",))

__all__ = ["GAME", "PLUGIN", "characters"]
