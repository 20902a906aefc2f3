"""The live dice view: the camera picture with vision's dice overlay.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

from companion import theme
from companion.contract import AppHost
from companion.frame import wrapped
from companion.widgets import show_picture, w
from companion.words import plural


class DiceScreen(Screen):
    """The camera picture with vision's dice overlay, from the camera feed, off the UI thread."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="dice", **kwargs)
        self.app = app
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=56, spacing=6)
        top.add_widget(w("THeading", text="Live dice"))
        # the players show the companion their own dice (companion.teach.screen)
        self.teach_button = w("TButton", text="Teach", size_hint_x=None, width=140,
                              on_release=lambda *_: app.show("teach"))
        top.add_widget(self.teach_button)
        # a table of photos (replay:FOLDER) waits for the game; this shows the next one now
        self.next_photo = w("TButton", text="Next photo", size_hint_x=None, width=0,
                            opacity=0, disabled=True, on_release=lambda *_: self.ask_next())
        top.add_widget(self.next_photo)
        top.add_widget(w("TButton", text="Back", size_hint_x=None, width=140,
                         on_release=lambda *_: app.back()))
        root.add_widget(top)
        # the camera, the dice it sees and whether they move, on a line of its own: whole
        self.status = wrapped(app, "", 16, color=theme.MUTED)
        self.status.markup = False  # a camera's name is shown as it is
        root.add_widget(self.status)
        # what the players must know about the camera (a replay that has ended), whole
        self.notice = wrapped(app, "", 17, color=theme.DANGER)
        root.add_widget(self.notice)
        self.image = Image(fit_mode="contain")
        self.placeholder = w("TLabel", text="no camera", font_size=app.fs(30),
                             color=theme.MUTED, size_hint_y=None, height=0, opacity=0)
        root.add_widget(self.placeholder)
        root.add_widget(self.image)
        self.add_widget(root)
        self._poll: Any = None
        self.frames = 0

    def ask_next(self) -> None:
        """Next photo: the table of photos shows (and gives the game) its next photo."""
        camera = self.app.camera
        if camera is not None:
            camera.next_photo()

    def on_enter(self, *args: Any) -> None:
        camera = self.app.camera
        photos = camera is not None and camera.photo_table
        self.next_photo.width = 190 if photos else 0
        self.next_photo.opacity, self.next_photo.disabled = (1, False) if photos else (0, True)
        if camera is None:
            self.placeholder.height, self.placeholder.opacity = 200, 1
            self.image.opacity = 0
            self.status.text = "no camera (Settings: Camera)"
            return
        self.placeholder.height, self.placeholder.opacity = 0, 0
        self.image.opacity = 1 if self.frames else 0
        if not self.frames:
            self.status.text = f"{camera.label}: starting"
        camera.want("dice-view")
        self._poll = Clock.schedule_interval(lambda dt: self._show(), 1 / 15)

    def on_leave(self, *args: Any) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.app.camera is not None:
            self.app.camera.release("dice-view")

    def _show(self) -> None:
        """Main thread: show the feed's newest picture (vision's overlay drawn in) if new."""
        camera = self.app.camera
        if camera is None:
            return
        if camera.error:
            self.status.text = f"camera error: {camera.error}"
            return
        self.notice.text = camera.ended or ""
        if camera.ended:
            self.status.text = "replay ended"
        snap = camera.latest()
        if snap is None or snap.index == self.frames:
            return
        show_picture(self.image, snap.rgb)
        self.frames = snap.index
        dice = snap.reading.dice
        unsure = sum(1 for d in dice if d.value is None and d.face is None)
        state = "dice moving" if snap.moving else "still"
        self.status.text = "replay ended" if camera.ended else (
            f"{camera.label}  {plural(len(dice), 'die', 'dice')}"
            + (f", {unsure} unsure" if unsure else "")
            + f"  ({state})")


__all__ = ["DiceScreen"]
