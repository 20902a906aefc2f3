"""The table's teacher, for the calibration profile in use (docs/teach.md): made when first
needed, made again when Settings choose another profile, and told the dice the players confirm
or correct in play.

A service of the app: it is given how to read the settings and how to hand a taught profile
to the camera; it knows nothing of screens or games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion import settings as settings_mod
from companion.services.camera import CameraService
from companion.teach import Teacher
from vision import Profile, Reading


class Teaching:
    """The teacher of the profile in use (:attr:`teacher`), closed by ``on_stop``, which the
    app calls as it stops."""

    def __init__(self, settings: Callable[[], settings_mod.Settings],
                 cameras: CameraService) -> None:
        self._settings = settings
        self._cameras = cameras
        self._teacher: Teacher | None = None
        self._made: list[Teacher] = []  # each closed at the stop: a job in hand finishes

    @property
    def teacher(self) -> Teacher:
        """The teacher of the profile Settings names, the current one for "default" (or one
        called "default" when there is none yet; with "none" in Settings what is taught is
        kept there but not read with)."""
        name = self.target()
        if self._teacher is not None and self._teacher.name != name:
            self._teacher.retire()  # Settings chose another profile
            self._teacher = None
        if self._teacher is None:
            from companion.paths import profile_store

            self._teacher = Teacher(profile_store(), name,
                                    lambda profile: self._taught(name, profile))
            self._made.append(self._teacher)
        return self._teacher

    def target(self) -> str:
        """The name of the profile teaching the dice keeps its lessons in."""
        chosen = self._settings().calibration_profile
        if chosen not in ("", "none", "default"):
            return chosen
        from companion.paths import profile_store

        try:
            return profile_store().current_name() or "default"
        except (ValueError, OSError):  # a damaged pointer file: teach "default"
            return "default"

    def _taught(self, name: str, profile: Profile) -> None:
        """The teacher's thread: profile ``name`` was taught; read with it from the next
        frame, if it is still the one in use (not with "none" in Settings: nothing
        calibrated is read then)."""
        if self._settings().calibration_profile == "none" or self.target() != name:
            return
        self._cameras.taught(profile)

    def refit(self) -> None:
        """The profile in use holds dice taught here: the teacher fits them again for the
        models in use, where they were fitted for others."""
        self.teacher.refresh()

    def from_play(self, reading: Reading, corrections: Mapping[int, str]) -> None:
        """Dice the players confirmed or corrected in play teach the table (the crops the
        camera kept of that picture; none kept: nothing to learn from)."""
        feed = self._cameras.feed
        crops = feed.crops_of(reading) if feed is not None else None
        if crops and corrections:
            self.teacher.add_play(reading, corrections, crops)

    def on_stop(self) -> None:
        """The app stops: each teacher made lets the job in hand finish (its profile saved)."""
        for teacher in self._made:
            teacher.close()
