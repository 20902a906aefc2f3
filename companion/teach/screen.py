"""The teaching screen (Kivy): the players show the companion their own dice, by touch.

Reached from the live dice view ("Teach"). It draws :class:`companion.teach.TeachModel` and
forwards touches; the table's :class:`companion.teach.Teacher` (the app's) keeps the lessons
and fits the reader, off the UI thread. Import only after Kivy's environment is set.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import AppHost
from companion.frame import confirm, wrapped
from companion.teach import Mode, Taught, Teacher, TeachModel, draw_marks
from companion.widgets import show_picture, w
from companion.words import plural

#: Who wants the camera while this screen shows (plain frames: the lesson is cut from them).
WANT = "teach"
#: The height of a button of the side column, px (a finger's width and more).
BUTTON = 56


class Picture(Image):
    """The camera picture; a touch on it is a tap at a frame pixel (see
    :meth:`TeachScreen.tap_picture`)."""

    def __init__(self, screen: TeachScreen, **kwargs: Any) -> None:
        super().__init__(fit_mode="contain", **kwargs)
        self.screen = screen

    def frame_pixel(self, x: float, y: float, shape: tuple[int, ...]) -> tuple[float, float] | None:
        """The frame pixel (of a frame of ``shape``) shown at window point (x, y); None when
        the point is beside the picture."""
        iw, ih = self.norm_image_size
        if iw <= 0 or ih <= 0:
            return None
        left, bottom = self.center_x - iw / 2, self.center_y - ih / 2
        u, v = (x - left) / iw, (y - bottom) / ih
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
            return None
        return u * shape[1], (1.0 - v) * shape[0]

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        return self.screen.tap_picture(*touch.pos)


class TeachScreen(Screen):
    """Teach the dice: take a picture of a roll (or of dice laid out 1 to 6), correct what the
    camera read by touch, keep it; Learn fits the reader; Forget undoes all teaching."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="teach", **kwargs)
        self.app = app
        self.model = TeachModel()
        self.shown: Any = None  # the latest camera snapshot shown
        self.busy: Future[Taught] | None = None
        self.teacher: Teacher | None = None  # the app's, taken when the screen shows
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=56, spacing=6)
        top.add_widget(w("THeading", text="Teach the dice"))
        self.back_button = w("TButton", text="Back", size_hint_x=None, width=140,
                             on_release=lambda *_: self.leave())
        top.add_widget(self.back_button)
        root.add_widget(top)
        self.words = wrapped(app, "", 16)
        root.add_widget(self.words)
        # the picture as large as the screen allows (dice big enough to tap), the keypad and
        # the buttons in a column beside it
        main = BoxLayout(spacing=6)
        self.picture = Picture(self, size_hint_x=0.66)
        main.add_widget(self.picture)
        side = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.34)
        self.status = wrapped(app, "", 15, color=theme.MUTED)
        side.add_widget(self.status)
        side.add_widget(Widget())  # what is left of the column: above the buttons
        self.keypad = GridLayout(cols=3, spacing=4, size_hint_y=None, height=0, opacity=0,
                                 disabled=True)
        self.faces = []
        for v in range(1, 7):
            b = w("TButton", text=str(v), on_release=lambda _b, v=v: self.set_value(v))
            self.faces.append(b)
            self.keypad.add_widget(b)
        side.add_widget(self.keypad)
        self.no_die = w("TButton", text="No die", size_hint_y=None, height=0, opacity=0,
                        disabled=True, on_release=lambda *_: self.not_a_die())
        side.add_widget(self.no_die)
        self.take_button = w("TButton", text="Take", size_hint_y=None, height=BUTTON,
                             on_release=lambda *_: self.first())
        self.layout_button = w("TButton", text="Take 1-6", size_hint_y=None, height=BUTTON,
                               on_release=lambda *_: self.second())
        self.learn_button = w("TBigButton", text="Learn", size_hint_y=None, height=BUTTON,
                              on_release=lambda *_: self.learn())
        self.forget_button = w("TButton", text="Forget", size_hint_y=None, height=BUTTON,
                               on_release=lambda *_: self.ask_forget())
        for b in (self.take_button, self.layout_button, self.learn_button, self.forget_button):
            side.add_widget(b)
        main.add_widget(side)
        root.add_widget(main)
        self.add_widget(root)
        self._poll: Any = None
        self.refresh()

    # -- the camera -----------------------------------------------------------------------

    def on_enter(self, *args: Any) -> None:
        self.teacher = self.app.teacher
        camera = self.app.camera
        if camera is not None:
            camera.want(WANT, plain=True)
            self._poll = Clock.schedule_interval(lambda dt: self.show_camera(), 1 / 15)
        if self.teacher is None:
            self.status.text = "Nothing can be taught here."
        else:  # the profile is read on the teacher's thread
            self.teacher.count().add_done_callback(
                lambda f: Clock.schedule_once(lambda dt: self.counted(f)))
        self.refresh()

    def counted(self, job: Future[Taught]) -> None:
        """Main thread: how many dice the table holds, unless a job has said more since."""
        result = job.result()
        if self.busy is None and not result.failed and not self.status.text:
            self.status.text = self.holds_words(result.dice)

    def on_leave(self, *args: Any) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.app.camera is not None:
            self.app.camera.release(WANT)

    def leave(self) -> None:
        self.model.again()
        self.app.show("dice")

    def show_camera(self) -> None:
        """Main thread: the newest picture, while no picture is taken."""
        camera = self.app.camera
        if camera is None or self.model.taken is not None:
            return
        snap = camera.latest()
        if snap is None or snap is self.shown:
            return
        self.shown = snap
        show_picture(self.picture, snap.rgb)
        self.refresh()

    # -- taps -----------------------------------------------------------------------------

    def first(self) -> None:
        """Take (live) or Again (a picture taken)."""
        if self.model.taken is None:
            self.take(Mode.ROLL)
        else:
            self.model.again()
            self.shown = None
            self.refresh()

    def second(self) -> None:
        """Take 1-6 (live) or Right (a picture taken)."""
        if self.model.taken is None:
            self.take(Mode.LAYOUT)
        else:
            self.keep()

    def take(self, mode: Mode) -> None:
        snap = self.shown
        if snap is None or snap.plain is None:
            self.status.text = "No picture from the camera yet."
            return
        self.model.take(snap.plain, snap.reading, mode)
        self.redraw()

    def tap_picture(self, x: float, y: float) -> bool:
        if self.model.taken is None:
            return False
        at = self.picture.frame_pixel(x, y, self.model.taken.shape)
        if at is None:
            return False
        self.model.tap(*at)
        self.redraw()
        return True

    def set_value(self, value: int) -> None:
        self.model.set_value(value)
        self.redraw()

    def not_a_die(self) -> None:
        self.model.not_a_die()
        self.redraw()

    def keep(self) -> None:
        problem = self.model.problem()
        if problem is not None or self.busy is not None or self.model.taken is None:
            self.status.text = problem or "One moment: the last lesson is still being kept."
            return
        dice = self.model.lesson()
        self.run(self.app_teacher().add_view(self.model.taken, dice))
        self.model.kept()
        self.shown = None
        self.refresh()

    def learn(self) -> None:
        if self.busy is not None:
            return
        self.status.text = "Learning your dice (a few seconds)..."
        self.run(self.app_teacher().learn())

    def ask_forget(self) -> None:
        confirm(self.app, "Forget the dice?",
                "Forget everything this table taught about its dice? The camera reads them "
                "as it did before any teaching.", "Forget",
                lambda: self.run(self.app_teacher().forget()), no="Keep them")

    # -- the teacher's work, off the UI thread ----------------------------------------------

    def app_teacher(self) -> Teacher:
        teacher = self.teacher
        assert teacher is not None  # the buttons that ask for it are off without one
        return teacher

    def run(self, job: Future[Taught]) -> None:
        self.busy = job
        self.refresh()
        job.add_done_callback(lambda f: Clock.schedule_once(lambda dt: self.done(f)))

    def done(self, job: Future[Taught]) -> None:
        """Main thread: a job of the teacher's ended."""
        if job is self.busy:
            self.busy = None
        result = job.result()
        self.status.text = result.words if result.failed else \
            f"{result.words} {self.holds_words(result.dice)}"
        self.status.color = theme.DANGER if result.failed else theme.MUTED
        self.refresh()

    def holds_words(self, dice: int) -> str:
        lessons = self.model.lessons
        kept = f" ({plural(lessons, 'picture', 'pictures')} now)" if lessons else ""
        return f"Dice taught: {dice}{kept}."

    # -- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        if self.model.taken is not None:
            show_picture(self.picture, draw_marks(self.model.taken, self.model.marks,
                                                  self.model.selected))
        self.refresh()

    def refresh(self) -> None:
        """Words, keypad and buttons as the model stands (no widget is made again: a button
        made again would lose a finger's tap). A picture taken: the keypad (while a die is
        chosen), Again and Right; live: Take, Take 1-6, Learn and Forget."""
        m = self.model
        self.words.text = m.words()
        taken = m.taken is not None
        picking = taken and m.selected is not None
        _show(self.keypad, picking, 2 * BUTTON + 4)
        _show(self.no_die, picking, BUTTON)
        working = self.busy is not None
        self.take_button.text = "Again" if taken else "Take"
        self.layout_button.text = "Right" if taken else "Take 1-6"
        self.layout_button.disabled = working and taken
        no_teacher = self.teacher is None
        _show(self.learn_button, not taken, BUTTON, disabled=working or no_teacher)
        _show(self.forget_button, not taken, BUTTON, disabled=working or no_teacher)


def _show(widget: Any, shown: bool, height: float, disabled: bool = False) -> None:
    """A widget of the side column shown at ``height`` (enabled unless ``disabled``), or
    folded away (no height, not drawn, not touched)."""
    widget.height = height if shown else 0
    widget.opacity = 1 if shown else 0
    widget.disabled = disabled or not shown


__all__ = ["TeachScreen"]
