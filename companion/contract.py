"""The contract between the app and a game: what a game gives, and what its screens may ask.

Every game of the companion lives in ``companion/games/<game>/`` and declares itself with one
:class:`GamePlugin` (its rules short name, its title, whether it uses the table's buttons, and
how to make a :class:`TableGame` for a session). The app asks every game the same typed
questions and gives every game's screens the same small :class:`Host`, never the app itself:

- the game's state questions are the rules' own: ``session.prompt()`` (who acts, the phase,
  whether a round clock runs, whether a roll is expected) and ``game.placings()``;
- a :class:`TableGame` answers for the table: its screens, what it does after a change of the
  game, on every tick of the app's clock, with a settled roll from the camera and with a
  press of the table's buttons;
- a :class:`Host` gives screens what the table has: the settings, the clock, screens to show,
  undo and redo, leaving or restarting the game, the camera and the sounds, and where the
  players corrected a die the camera read (for the dice statistics).

A sixth game is one new folder with a ``PLUGIN``; nothing else in the app changes.

The app's own screens (start, settings, live dice, history, tournament) and the tournament
hub see the app the same way, as an :class:`AppHost`; the composition root
(:mod:`companion.compose`) makes them with an :class:`AppScreens` and gives it to the app,
which imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from hardware.buttons import Light as ButtonLight

if TYPE_CHECKING:
    from kivy.uix.screenmanager import Screen

    from calibration.zones import Zone
    from companion.journal import Journal
    from companion.session import SessionChange, TableSession
    from companion.settings import Settings
    from companion.teach import Teacher
    from companion.voice.phrases import HeardCall, MakeVoice
    from hardware.buttons import ButtonEvent
    from rules import Ending, Setup
    from vision import Profile, Reading

#: A seat's light on the table's buttons ("on", "off" or "blink"), as the buttons take it.
Light = ButtonLight

@dataclass(frozen=True)
class ButtonUse:
    """Whether a game uses the table's arcade buttons, and what players are told when not."""

    used: bool
    note: str = ""


@dataclass(frozen=True)
class VoiceUse:
    """Whether a game takes calls said aloud (docs/voice.md): ``make`` makes its voice (its
    phrases now, and whose each call is) for a game; None when it listens to none, and
    ``note`` says so in words."""

    make: MakeVoice | None
    note: str = ""


def no_voice(title: str) -> VoiceUse:
    """What a game that listens to no call says (Settings, the doctor, the log)."""
    return VoiceUse(None, f"{title} listens to no call said aloud: tap the screen")


def no_buttons(title: str) -> ButtonUse:
    """What a game without button calls tells players who press one."""
    return ButtonUse(False, f"The table's buttons are not used in {title}: tap the screen.")


@dataclass(frozen=True)
class Snapshot:
    """The camera's newest frame: its number, the picture with vision's overlay (RGB), the
    reading, and whether dice are moving; ``plain``, the frame as the camera gave it (BGR, no
    overlay), only while someone wants plain frames (``want(who, plain=True)``: a code to
    scan, which the overlay would spoil), else None."""

    index: int
    rgb: Any  # numpy uint8 array (H, W, 3)
    reading: Reading
    moving: bool
    plain: Any = None  # numpy uint8 array (H, W, 3), BGR, or None


class CameraView(Protocol):
    """The table's camera as a screen sees it."""

    @property
    def label(self) -> str:
        """What the camera is, in plain words ("Pi camera", "rendered dice, no camera")."""

    @property
    def stand_in(self) -> bool:
        """True when the picture is rendered dice, not a camera's."""

    @property
    def rolls_count(self) -> bool:
        """True when its settled rolls may enter a game: a real camera, or the stand-in the
        players chose themselves (never a stand-in shown because no camera was found)."""

    @property
    def error(self) -> str | None: ...

    @property
    def ended(self) -> str | None:
        """Set once a replayed folder or video has shown its last picture: what the players
        are told (no more rolls will come from it)."""

    @property
    def photo_table(self) -> bool:
        """True for a folder of photos that waits for the game (``replay:FOLDER``): the next
        photo comes when the game asks for a roll again, or on :meth:`next_photo`."""

    def next_photo(self) -> bool:
        """The players ask for the next photo of a table of photos; False (nothing done) for
        any other camera."""

    def want(self, who: str, plain: bool = False) -> None:
        """Run the camera for ``who``; ``plain`` also keeps each frame without the overlay."""

    def release(self, who: str) -> None: ...

    def latest(self) -> Snapshot | None: ...


class Fonts(Protocol):
    """What a dialog or a label needs of its host: the text size."""

    def fs(self, size: float) -> float:
        """A font size scaled by the text-size setting."""


class Host(Fonts, Protocol):
    """What a game's screens may ask of the table (boardgame.io's board props, for Kivy)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def camera(self) -> CameraView | None:
        """The table's camera, or None when there is none ("none" in Settings)."""

    @property
    def board_zones(self) -> tuple[Zone, ...]:
        """The players' board zones of the calibration profile in use."""

    def now(self) -> float:
        """The table's monotonic clock (seconds)."""

    def show(self, name: str) -> None:
        """Show a screen: one of the game's own, or "settings", "dice", "start"."""

    def back(self) -> None:
        """Back to the game's screen from settings or the dice view."""

    def undo(self) -> None: ...

    def redo(self) -> None: ...

    def end_game(self, ending: Ending | None = None) -> str | None:
        """Leave the game. ``ending`` None: a game that is over is left, one with no call is
        not kept, any other stays in the journal to resume; :attr:`rules.Ending.AGREED` or
        ``NO_RESULT``: the players end it now (:mod:`companion.ending`), and its play's
        BG Stats link is returned (None otherwise, or when it could not be saved)."""

    def play_link(self) -> str | None:
        """The BG Stats link of the game being played, once it is over (None before): its
        play, as ``companion history export bgstats`` writes it."""

    def restart(self, options: Mapping[str, Any]) -> TableGame | None:
        """Start this game again with other options, before its first call (same players and
        seed); the empty game is closed in the journal. Returns the new table game, or None
        (the reason shown in the session's message) when the engine refuses the options."""

    def mute(self, on: bool) -> None:
        """Silence every sound (or bring it back), at once, from any game screen."""

    def muted(self) -> bool: ...

    def sound(self, name: str) -> bool:
        """Play a sound by name ("yarra_mark", "knockout", "hit"...); False when there is no
        such sound (nothing plays; the table goes on)."""

    def vision_profile(self) -> Profile | None:
        """vision's profile of the calibration profile in use (palette, face sets)."""

    def took_roll(self, reading: Reading) -> None:
        """The game took the camera's dice in ``reading`` as the players' roll (a settled roll
        it read, or a picture read when they tapped Camera): the roll log keeps them for the
        dice statistics. The game is the one gate: dice it ignores (the camera off, faces no
        face set reads, a tray it does not read) are not kept."""

    def correct_roll(self, reading: Reading, corrections: Mapping[int, str]) -> None:
        """The players confirmed or corrected dice the camera read: ``corrections`` maps a
        die's index in ``reading.dice`` to the face they gave ("1".."6" for pips, the face's
        words for icon dice), the camera's own face when they confirmed it. The roll the
        camera recorded for the dice statistics counts those dice as corrected. ``reading``
        is the settled roll the game was given, or a later picture of the same dice lying
        still; dice of another roll are not matched and change nothing. Raises ValueError
        for an index ``reading`` has no die for, or a face that is not a non-empty string."""


V_co = TypeVar("V_co", covariant=True)


@runtime_checkable
class GameModel(Protocol[V_co]):
    """A game's model, one shape for all five (``companion/games/<game>/model.py``: no Kivy):
    what the table shows and what each tap, press or settled reading means.

    It never listens to the session itself: its host (the game's :class:`TableGame`) hands it
    every change first, and only then asks its screen to draw, from :meth:`view`. It hands
    the session call values (:class:`rules.Call`), never words to parse again.
    """

    def on_session(self, change: SessionChange) -> None:
        """The session changed (a call, an undo, a redo, a refusal, a call being built, the
        clock): the model brings what it keeps up to date. It draws nothing."""

    def view(self) -> V_co:
        """What the table shows now, as typed plain data (no markup: words to stress come
        as :class:`companion.games.emphasis.Text`)."""


class TableGame(Protocol):
    """One game at the table, as the app drives it."""

    @property
    def screens(self) -> Sequence[Screen]:
        """The game's screens; the first is shown when the game starts or is resumed."""

    def on_session(self, change: SessionChange) -> None:
        """The session changed (:class:`companion.session.Change`: a call, an undo, a redo,
        a refusal, a call being built by taps, the round clock started, resumed or paused,
        or one of its cues)."""

    def on_tick(self) -> None:
        """The app's clock ticked (10 times a second while the game is on)."""

    def on_roll(self, reading: Reading) -> None:
        """The camera saw a roll settle (main thread): a die arrived and tumbled while the
        game's prompt expected a roll; only rolls that may count arrive. A game that takes
        them as the roll tells :meth:`Host.took_roll`."""

    def on_settled(self, reading: Reading) -> None:
        """The camera saw the dice lie still after any change, rolls and handling alike (dice
        moved onto a board); main thread."""

    def on_button(self, event: ButtonEvent, seats: Sequence[str]) -> None:
        """A press of the table's buttons (main thread), for games that use them; ``seats``
        are the button map's seat names in table order."""

    def say(self, text: str) -> None:
        """Show a short message to the players on the game's screen."""

    def wants_camera(self) -> bool:
        """True while the game reads dice from the camera."""

    def lights(self) -> Sequence[Light]:
        """Each seat's light on the table's buttons: "on", "off" or "blink" (seat order)."""

    def close(self) -> None:
        """The game leaves the table: stop its timers, release what it holds."""


@runtime_checkable
class HearsCalls(Protocol):
    """A table game that takes calls said aloud (its plugin's :class:`VoiceUse` makes them)."""

    def on_heard(self, heard: HeardCall) -> None:
        """A call heard at the table (main thread): shown at once as heard, then taken like
        a tapped call unless cancelled; where several players could have said it, the table
        asks who with one tap."""


MakeTable = Callable[["Host", "TableSession[Any]"], TableGame]

#: A listener of the app's session changes (:meth:`AppHost.listen`).
SessionListener = Callable[["SessionChange"], None]


class AppHost(Fonts, Protocol):
    """What the app's own screens (start, settings, live dice, history, tournament) and the
    tournament hub may ask of the app: never the app itself."""

    @property
    def settings(self) -> Settings: ...

    @property
    def camera(self) -> CameraView | None:
        """The table's camera, or None when there is none ("none" in Settings)."""

    @property
    def journal(self) -> Journal:
        """The journal this companion keeps (its games, rolls and tournaments)."""

    @property
    def config_file(self) -> dict[str, Any]:
        """The config file's tables as read at start ({} when there is none)."""

    @property
    def notices(self) -> list[str]:
        """What the players must know before playing (shown once, on the start screen)."""

    @property
    def session(self) -> TableSession[Any] | None:
        """The game at the table now (None with no game on)."""

    @property
    def screens(self) -> Mapping[str, Screen]:
        """The screens built now, by name."""

    @property
    def volume(self) -> float:
        """The volume playing now, 0..1."""

    @property
    def teacher(self) -> Teacher | None:
        """Who keeps what the players teach the table about its own dice (the calibration
        profile in use, or "default"): None where nothing can be taught (no profile store)."""

    def show(self, name: str) -> None:
        """Show a screen by name: "start", "dice", "teach", "settings", "history",
        "tournament", or one of the game's own."""

    def back(self) -> None:
        """Back to the game's screen (or the start screen with no game on)."""

    def drop_screen(self, name: str) -> None:
        """Let go of one of the screens built when first opened, unless it shows now."""

    def start_game(self, setup: Setup, soundtrack: str = "none") -> TableSession[Any]:
        """Start a new game. Raises :class:`rules.RulesError` for a setup the engine refuses,
        or what the journal raises when it cannot keep it
        (:data:`companion.session.NOT_SAVED`)."""

    def resume_game(self, game_id: int) -> TableSession[Any] | None:
        """Bring a journaled game back; None when it cannot be (the start screen says why)."""

    def apply_settings(self, settings: Settings) -> None:
        """Save new settings and use them now (screens are built again in new sizes).
        Raises :class:`companion.settings.SettingsError` for settings that are not valid."""

    def soundtracks(self) -> list[str]:
        """Soundtracks in the soundtrack folder, by file name."""

    def soundtrack_length(self, name: str) -> float | None:
        """The length of a soundtrack in seconds (None for "none" or one that is missing)."""

    def board_problem(self) -> str:
        """Why the camera cannot fill the players' boards now ("" when it can)."""

    def listen(self, listener: SessionListener) -> None:
        """Tell ``listener`` every change of the game at the table, after the game's own
        screens: its session's changes, and ``GAME_ON`` / ``GAME_OFF`` as a game comes to the
        table (started or resumed) or leaves it."""

    def unlisten(self, listener: SessionListener) -> None: ...

    def add_stop_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` when the app stops, before it lets go of the journal."""

    def remove_stop_listener(self, listener: Callable[[], None]) -> None: ...

    def hear_call(self, heard: HeardCall) -> bool:
        """Give a call heard aloud to the game at the table (main thread); False when no game
        that takes them is at the table."""


@runtime_checkable
class StartPage(Protocol):
    """What the app asks of its start screen (besides being a Kivy screen named "start")."""

    def on_pre_enter(self, *args: Any) -> None: ...

    def refresh_resume(self) -> None:
        """Count the unfinished games again (one was resumed, dropped or marked broken)."""

    def show_notice(self, notices: Sequence[str]) -> None:
        """Show what the players must know, in a dialog."""

    def choices(self) -> dict[str, Any]:
        """What is chosen on the screen (to build it again at another text size)."""

    def restore(self, chosen: dict[str, Any]) -> None: ...


#: Makes one of the app's screens for its host.
MakeScreen = Callable[[AppHost], "Screen"]


@dataclass(frozen=True)
class AppScreens:
    """The app's own screens, given to it by the composition root: the start screen (a
    :class:`StartPage`) and the live dice view, made when the app builds, and the screens
    built when first opened (``later``, by name: each costs memory the table may never
    need, and is let go of again with :meth:`AppHost.drop_screen`)."""

    start: MakeScreen
    dice: MakeScreen
    later: Mapping[str, MakeScreen] = field(default_factory=dict)


@dataclass(frozen=True)
class StartOption:
    """A choice the start screen offers for a game, in words, before it starts (so nothing on a
    game's own screen changes or moves once play begins).

    ``key`` is the game's rules option; ``choices`` are (value, words), the first one chosen
    at first; a value of None leaves the option to the rules' default. ``also`` gives other
    options that follow from the choice (a shorter Dice-ocalypse moves its Battle Zone).
    ``counts``: (value, the numbers of players it takes) for a choice that takes only some
    (the start screen does not offer it at others, :mod:`companion.startcheck`): Alliances
    takes 4 or 6, not 5.
    """

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    also: Callable[[Any], Mapping[str, Any]] | None = None
    counts: tuple[tuple[Any, tuple[int, ...]], ...] = ()

    def words(self, value: Any) -> str:
        return next((w for v, w in self.choices if v == value), str(value))

    def value(self, words: str) -> Any:
        return next((v for v, w in self.choices if w == words), self.choices[0][0])

    def options(self, words: str) -> dict[str, Any]:
        """The rules options this choice sets (none for the rules' default)."""
        value = self.value(words)
        if value is None:
            return {}
        out = {self.key: value}
        if self.also is not None:
            out.update(self.also(value))
        return out


@dataclass(frozen=True)
class GamePlugin:
    """A game's declaration to the app: found by :func:`companion.games.plugins`.

    ``characters`` lists the characters players choose on the start screen (id -> name),
    for games that have them; ``options`` the choices the start screen offers; ``voice``
    whether it takes calls said aloud (None: it listens to none); ``loads`` the modules
    ``make`` imports (Kivy screens: the app imports them behind the start screen, so the first
    Start of the evening does not wait for them).
    """

    name: str  # the rules short name, e.g. "occulites"
    title: str
    buttons: ButtonUse
    make: MakeTable
    characters: Callable[[], Mapping[str, str]] | None = None
    options: tuple[StartOption, ...] = ()
    voice: VoiceUse | None = None
    loads: tuple[str, ...] = ()


__all__ = ["AppHost", "AppScreens", "ButtonUse", "CameraView", "Fonts", "GameModel", "GamePlugin",
           "HearsCalls", "Host", "Light", "MakeScreen", "MakeTable", "SessionListener",
           "Snapshot", "StartOption", "StartPage", "TableGame", "VoiceUse", "no_buttons",
           "no_voice"]
