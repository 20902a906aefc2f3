"""The camera at the table: the one the table chose, read with its calibration profile, running
while the game reads dice and told whose roll it expects, and whether its rolls count (a
stand-in's rendered dice never do).

A service of the app (docs/architecture.md): the app gives it the settings when they change
and, after each change of the game, what the game wants of the camera; the camera's worker
thread hands its settled rolls and views to the callbacks it is given (the app moves them to
the main thread). It knows nothing of screens.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from calibration.zones import Zone
from companion import settings as settings_mod
from companion import startcheck, startfiles
from companion.services.feed import CameraFeed, Source
from vision import Profile, Reading

OnReading = Callable[[Reading], None]


class CameraService:
    """The feed (None with no camera), the players' zones on it and the vision profile it
    reads with. ``on_roll`` and ``on_view`` get each settled roll and settled view on the
    camera's thread; ``on_examples`` is told when the profile holds dice taught at this
    table (the teacher refits them for the models in use). What the players must know (a
    camera name that is none, a profile that cannot be read) goes to ``notices``, once."""

    def __init__(self, *, config: dict[str, Any], notices: list[str], flag: str | None,
                 open_source: Callable[[str], Source] | None, on_roll: OnReading,
                 on_view: OnReading, on_examples: Callable[[], None]) -> None:
        self.config = config
        self.notices = notices
        self.flag = flag
        self.open_source = open_source  # tests: the camera the feed opens, whatever is chosen
        self.on_roll = on_roll
        self.on_view = on_view
        self.on_examples = on_examples
        self.feed: CameraFeed | None = None
        self.zones: tuple[Zone, ...] = ()
        self.profile: Profile | None = None
        self._wanted = False
        self._told_ended: str | None = None  # the end of a replay, once said in the game

    @property
    def rolls_count(self) -> bool:
        """True when a camera runs whose rolls are the table's (chosen by the players)."""
        return self.feed is not None and self.feed.rolls_count

    def _note(self, note: str) -> None:
        if note and note not in self.notices:
            self.notices.append(note)

    def calibration(self, settings: settings_mod.Settings) -> Any:
        """The chosen calibration profile: "default" is the current one (``companion calibrate
        use``), "none" reads uncalibrated; None when there is none or it cannot be read (then
        the players are told, once)."""
        name = settings.calibration_profile
        if name in ("", "none"):
            return None
        from companion.paths import profile_store

        store = profile_store()

        def read(_: Path) -> Any:
            return store.current() if name == "default" else store.load(name)

        what = "current calibration profile" if name == "default" else \
            f"calibration profile {name!r}"
        profile, note = startfiles.read_start_file(store.folder, what, read, None, owned=False)
        self._note(note or "")
        return profile

    def open(self, settings: settings_mod.Settings) -> CameraFeed | None:
        """The camera the table chose (command line > COMPANION_CAMERA > Settings > config
        file > the camera found > the stand-in), with the chosen calibration profile."""
        from hardware.camera import choose
        from hardware.errors import HardwareError

        cp = self.calibration(settings)
        self.zones = tuple(cp.zones) if cp is not None else ()
        self.profile = cp.profile if cp is not None else None
        if cp is not None and cp.dice.examples:  # fitted for other models? fit it again
            self.on_examples()
        if settings.camera == "none" and not (self.flag or env_camera()):
            return None
        try:
            choice = choose(self.flag, self.config, setting=settings.camera or None)
        except HardwareError as e:  # a name that is no camera: say so, use the one found
            self._note(f"Camera not used: {e}. The companion looks for a camera itself.")
            choice = choose("auto")
        return CameraFeed(choice, config=self.config, profile=self.profile,
                          open_source=self.open_source)

    def use(self, feed: CameraFeed | None) -> None:
        """Read from ``feed`` from now on (the one before is closed)."""
        if self.feed is not None and self.feed is not feed:
            self.feed.close()
        self.feed = feed
        if feed is not None:
            feed.zones = self.zones
            feed.on_roll = self.on_roll
            feed.on_settled = self.on_view
            if self._wanted:
                feed.want("game")

    def taught(self, profile: Profile) -> None:
        """The table's dice were taught: read with ``profile`` from the next frame."""
        self.profile = profile
        if self.feed is not None:
            self.feed.profile = profile

    def follow(self, wanted: bool, rollers: Sequence[str] | None, turn: int) -> None:
        """The camera runs for the game while ``wanted`` (the game reads dice), and knows
        whose roll the game expects now (``rollers``, None when none) at call ``turn``:
        anything else that moves dice is handling."""
        feed = self.feed
        if feed is not None:
            feed.expect(rollers, turn=turn)
            if wanted != self._wanted:
                if wanted:
                    feed.want("game")
                else:
                    feed.release("game")
        self._wanted = wanted

    def ended_news(self) -> str | None:
        """Once, when a replayed folder or video has shown its last picture: why, in words
        (the feed has logged it); None otherwise."""
        ended = self.feed.ended if self.feed is not None else None
        if ended and ended != self._told_ended:
            self._told_ended = ended
            return ended
        return None

    def board_problem(self) -> str:
        """Why the camera cannot fill the players' boards now ("" when it can)."""
        if self.feed is None:
            return startcheck.BOARDS_NEED_A_CAMERA
        if not self.zones:
            return startcheck.BOARDS_NEED_ZONES
        return ""

    def close(self) -> None:
        if self.feed is not None:
            self.feed.close()


def env_camera() -> str | None:
    """The camera COMPANION_CAMERA names, if any."""
    from hardware.camera import ENV_VAR

    value = os.environ.get(ENV_VAR, "").strip()
    return value or None


__all__ = ["CameraService", "env_camera"]
