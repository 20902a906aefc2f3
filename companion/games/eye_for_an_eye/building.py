"""A call of the arena being built from taps or buttons: action -> count -> target.

No Kivy here. The action keys of a player's board (:data:`GRAMMAR`), the counts the keypad
offers (:data:`KEYPAD`) and the call being built (:class:`CallBuilder`); what the engine takes
is asked of its legal calls (:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`).
"""

from __future__ import annotations

from dataclasses import dataclass

# Actions, by their generic key: (needs a count, needs a target) when the engine lists none.
GRAMMAR: dict[str, tuple[bool, bool]] = {
    "movement": (True, False),
    "attack": (True, True),
    "defence": (True, False),
    "heal": (False, False),
    "innate": (False, False),
    "unblockable": (True, True),
}
#: Counts the keypad offers (the arena's six count buttons).
KEYPAD = (1, 2, 3, 4, 5, 6)


@dataclass
class CallBuilder:
    """One call being built from up to three taps: action -> count -> target."""

    actor: str | None = None
    action: str | None = None
    count: int | None = None
    want_count: bool = False
    want_target: bool = False
    rear: bool = False  # an attack "from the rear": no parry possible
    proposed: str | None = None  # the target a held "cycle" button points at (buttons only)
    proposed_at: float = 0.0  # when it last moved (monotonic seconds)

    @property
    def needs_count(self) -> bool:
        return self.action is not None and self.want_count and self.count is None

    @property
    def needs_target(self) -> bool:
        return self.action is not None and self.want_target and not self.needs_count

    @property
    def active(self) -> bool:
        return self.action is not None

    def clear(self) -> None:
        self.actor = self.action = self.count = self.proposed = None
        self.want_count = self.want_target = self.rear = False


__all__ = ["GRAMMAR", "KEYPAD", "CallBuilder"]
