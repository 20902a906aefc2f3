"""What the Dice Forge table screen shows and what its taps do, with no Kivy.

The model keeps the taps half made (the faces of a roll tapped so far, "Which die first?", the
forge being built, the page of a long list, faces as words or pictures) and the last refusal or
notice; :meth:`DiceForgeModel.pane` says what the right-hand side shows for what the engine waits
for: the prompt, its hint, and every choice (its words, its face, whether it can be tapped, is
selected or completes a call, what it does). :meth:`DiceForgeModel.hero` says what a hero's panel
shows. The screen (screen.py) draws these and forwards touches; tests/companion/
test_dice_forge_model.py plays through it as plain Python.

The model keeps no rule: the faces offered for a roll are the player's dice, the options of a
choice, the forges and feats are the engine's ``legal_calls()`` and ``legal_purchases()``; a
forge of several faces is checked by trying it on a copy of the game. Every call goes through
``session.try_call`` (the journal records it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from companion.games.dice_forge.adapter import (
    RolledReading,
    call_from_reading,
    face_name,
    rolled_call,
)
from companion.games.dice_forge.art import face_art
from companion.games.dice_forge.view import (
    RESOURCES,
    Choice,
    DiceForgeView,
    HeroLook,
    Mode,
    NoteTone,
    Outside,
    Pane,
)
from companion.games.pages import one_page
from companion.session import Change, SessionChange, TableSession
from companion.words import plural
from rules import Call, Event, RulesError
from rules.dice_forge import Buy, Choose, DiceForge, Forge, Pass, Perform, Rolled
from rules.dice_forge import data as D
from rules.dice_forge.data import CELESTIAL_FACES
from rules.dice_forge.state import Player
from rules.dice_forge.table import TITANS
from vision import Reading

#: The camera's reading of a blessing and the faces the players confirmed or corrected in it
#: (by die index in the reading), for the dice statistics (Host.correct_roll).
RollFix = tuple[Reading, dict[int, str]]
#: Reports a roll the players confirmed or corrected (Host.correct_roll).
Report = Callable[[Reading, dict[int, str]], object]

#: What a choice the engine waits for is about, by its tag.
CHOICE_HINTS = {
    "parts": "Tap what to gain.", "wind": "Tap what to gain.", "companion": "Tap what to gain.",
    "copy": "Tap the face to copy.", "twins": "Keep the roll, or roll again?",
    "cerberus": "Use Cerberus (the faces again), or not?", "turn": "Tap the face to turn up.",
    "upgrade": "Tap the face to upgrade.", "fork": "Which way does the golem go?",
    "treasure": "Tap the treasure to take.", "pay": "Pay, or not?",
    "satyrs": "Tap a face the others rolled.", "place": "Where does the face go?",
    "memory": "Tap an island.", "give": "Give the face to whom?",
    "forge": "Tap the face to forge (free).", "right_hand": "How much gold to spend?",
    "first_titan": "Tap the feat to take.", "elder": "Pay 3 gold for 4 glory, or not?",
    "merchant": "Tap the upgrade.", "scepter": "Sun or moon?",
}


def sanctuary_faces() -> list[tuple[str, int]]:
    """Every face the Sanctuary sells, once, with its cost, in the order of its pools: the
    places of the forge's buttons (they never move as pools empty)."""
    out: list[tuple[str, int]] = []
    for _pool, (cost, _level, faces) in D.sanctuary().items():
        for face in dict.fromkeys(faces):
            out.append((face, cost))
    return out


def short_card(name: str) -> str:
    """A feat's name without its article: "Mirror of the Abyss"."""
    return name.removeprefix("The ")


def feat_price(sun: int, moon: int) -> str:
    """A feat's price in words: "2 sun 1 moon"."""
    return " ".join(x for x in (f"{sun} sun" if sun else "", f"{moon} moon" if moon else "")
                    if x)


class DiceForgeModel:
    """The Dice Forge table's half-made taps, its messages and what it shows."""

    def __init__(self, session: TableSession[DiceForge], report: Report) -> None:
        self.session = session
        self.report = report
        #: The camera's newest settled roll (faces need a calibrated Dice Forge face set).
        self.settled: Reading | None = None
        self.mode: Mode = ""
        self.picked: dict[int, str] = {}  # roll of both dice: die index -> face tapped
        #: The camera's reading of a roll of both dice the players confirm: (it, as read, the
        #: number of calls then: a reading of another roll is never reported).
        self.read_from: tuple[Reading, RolledReading, int] | None = None
        #: A roll of both dice whose order matters: (die 1's face, die 2's face), awaiting
        #: "Which die first?", and the camera's dice the players corrected in it, if any.
        self.ordering: tuple[str, str] | None = None
        self.ordering_fix: RollFix | None = None
        self.basket: list[Buy] = []  # faces of the forge being built
        self.face: str | None = None  # Sanctuary face chosen, awaiting die and face replaced
        self.page = 0  # a long list of choices: the page shown
        self.words = False  # faces shown in words instead of pictures (Menu)
        self.wait_key: tuple[int, str] = (-1, "")
        self.message = ""  # a refusal (the engine's reason)
        self.notice = ""  # what the app said (Undid: ...)
        #: The last camera reading taken as a roll, with the number of calls then
        #: (:meth:`_take`; the screen tells ``Host.took_roll``).
        self.taken: tuple[Reading, int] | None = None
        #: What the table does outside the game (the screen gives it: see :meth:`view`).
        self.outside = Outside()

    @property
    def game(self) -> DiceForge:
        return self.session.game

    # -- after every change ------------------------------------------------------------------

    def on_session(self, change: SessionChange) -> None:
        """The session changed (its host hands every change here before the screen draws)."""
        if change.game_changed or change.kind in (Change.REFUSED, Change.BUILDING):
            self.sync(change.events)

    def sync(self, events: Sequence[Event] = ()) -> None:
        """Take the session's refusal, and drop half-made taps once the table moved on."""
        game = self.game
        if self.session.message:  # a refusal: the engine's reason
            self.message = self.session.message
            self.session.clear_notice()
        s = game.state
        key = (len(game.history), game.waiting_for())
        if key != self.wait_key:  # the table moved on: drop half-built taps
            if self.wait_key[0] >= 0:
                self.picked, self.page, self.ordering = {}, 0, None
                if self.mode and (s.steps or s.phase != "action"):
                    self.mode, self.basket, self.face = "", [], None
                if events:
                    self.message = self.notice = ""
            self.wait_key = key

    def note(self, hint: str) -> tuple[NoteTone, str]:
        """The line under the prompt: a refusal, else a notice, else the hint."""
        if self.message:
            return "refused", self.message
        if self.notice:
            return "notice", self.notice
        return "hint", hint

    def title(self) -> str:
        s = self.game.state
        rounds = f"Round {min(s.round, s.rounds)} of {s.rounds}"
        return rounds + ("" if s.module == "none" else f" · {s.module.capitalize()}")

    def view(self) -> DiceForgeView:
        """The whole table now, with the buttons :attr:`outside` gives."""
        o = self.outside
        pane = self.pane(o.camera, o.ask_end, o.leave, o.play_code)
        heroes = {p.name: self.hero(p.name) for p in self.game.state.players}
        return DiceForgeView(self.title(), heroes, self.words, pane, self.note(pane.hint))

    def hero(self, name: str) -> HeroLook:
        game = self.game
        s = game.state
        p = s.player(name)
        have = {"gold": p.gold, "sun": p.sun, "moon": p.moon, "ancient": p.ancient}
        reserves = tuple((key, have[key], p.cap(key)) for key in RESOURCES
                         if key != "ancient" or s.module == "titans")
        token = plural(len(p.cards), "feat")
        if s.module == "titans":
            token += f" · Titans {p.titan} ({TITANS[p.titan][3]:+d})"
        elif s.module == "goddess":
            token += f" · golem on {p.golem}"
        active = s.phase != "over" and s.current.name == name
        return HeroLook(name, active, p.glory, reserves, (p.face_up(0), p.face_up(1)), token,
                        game.score(name))

    # -- taps ------------------------------------------------------------------------------

    def call(self, call: Call) -> bool:
        """Send one of the engine's calls through the session; a refusal shows the engine's
        reason."""
        return self.session.try_call(call) is not None

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note)."""
        self.notice = text

    def tapped(self) -> None:
        """A tap on the screen: the last message has been read."""
        self.message = self.notice = ""

    def start_forge(self) -> None:
        self.tapped()
        self.mode, self.basket, self.face, self.page = "forge", [], None, 0

    def start_feat(self) -> None:
        self.tapped()
        self.mode = "perform"

    def pick_face(self, die: int, face: str) -> None:
        """A face tapped for a roll of both dice; the call goes when both are known."""
        self.tapped()
        self.picked[die] = face
        st = self.game.state.steps[0]
        if len(self.picked) == 2:
            faces = (self.picked[0], self.picked[1])
            self.picked = {}
            read, self.read_from = self.read_from, None
            fix: RollFix | None = None
            if read is not None and read[2] == len(self.game.history):
                reading, got, _ = read  # the dice statistics: the faces confirmed or corrected
                fixed = {got.dice[k]: face for k, face in enumerate(faces)
                         if k < len(got.dice) and (got.uncertain[k] or got.faces[k] != face)}
                fix = (reading, fixed) if fixed else None
            self.send_roll(st.player, faces, fix)

    def send_roll(self, player: str, faces: tuple[str, str], fix: RollFix | None = None) -> None:
        """A divine blessing's faces, die 1's then die 2's: called at once, or, when the order
        they are applied in changes the outcome, after asking which die first. ``fix``: the
        camera's dice the players confirmed or corrected, reported once the call is taken."""
        rolled = rolled_call(player, faces)
        if self.game.order_matters(rolled):
            self.ordering, self.ordering_fix = faces, fix
            return
        if self.call(rolled) and fix is not None:
            self.report(*fix)

    def pick_order(self, first: int) -> None:
        """The answer to "Which die first?": die ``first`` (0 or 1) is applied first."""
        self.tapped()
        if self.ordering is None:
            return
        faces = self.ordering if first == 0 else self.ordering[::-1]
        fix, self.ordering, self.ordering_fix = self.ordering_fix, None, None
        if self.call(rolled_call(self.game.state.steps[0].player, faces)) and fix is not None:
            self.report(*fix)  # (refused: the reason shows, and the faces are asked again)

    def cancel_order(self) -> None:
        """Cancel on "Which die first?": back to tapping the faces."""
        self.tapped()
        self.ordering = self.ordering_fix = None

    def choose_sanctuary_face(self, face: str | None) -> None:
        """A face of the Sanctuary to forge (None: back to the Sanctuary)."""
        self.tapped()
        self.face = face

    def add_buy(self, buy: Buy) -> None:
        self.tapped()
        self.basket.append(buy)
        self.face = None

    def forge_now(self) -> None:
        p = self.game.state.current
        if self.basket and self.call(Forge(p.name, tuple(self.basket))):
            self.mode, self.basket, self.face = "", [], None

    def cancel_forge(self) -> None:
        self.tapped()
        self.mode, self.basket, self.face = "", [], None

    def perform(self, feat: Perform) -> None:
        if self.call(feat):
            self.mode = ""

    def turn_page(self, page: int) -> None:
        self.tapped()
        self.page = page

    def toggle_words(self) -> None:
        """Faces as words (every face's name) or as pictures."""
        self.words = not self.words

    # -- the camera ----------------------------------------------------------------------------

    def knows_faces(self, labels: Iterable[str]) -> bool:
        """True when a face set's labels name faces of this game's dice."""
        faces = {f for p in self.game.state.players for die in p.dice for f in die}
        return any(face_name(label) in faces for label in labels)

    def awaits_roll(self) -> bool:
        s = self.game.state
        return bool(s.steps) and s.steps[0].kind in ("roll2", "roll1")

    def read(self, reading: Reading | None) -> None:
        """The camera's roll: certain faces go at once, the rest are preselected for the
        players to confirm by touch."""
        s = self.game.state
        if not s.steps:
            return
        st = s.steps[0]
        p = s.player(st.player)
        which = (0, 1) if st.kind == "roll2" else (
            (st.data["die"],) if st.data.get("die", -1) >= 0 else (0,))
        if reading is None:
            self.message = "The camera has no settled roll yet."
            return
        rolled, got = call_from_reading(p.name, reading, p.dice, which)
        if rolled is not None or (st.kind == "roll2" and got.dice and not got.problem):
            self._take(reading)
        if rolled is not None and st.kind == "roll2":
            seen = [f for f in got.faces if f is not None]  # certain: both read
            self.send_roll(p.name, (seen[0], seen[1]))  # asks which first when that matters
            return
        if rolled is not None:
            self.call(rolled)
            return
        self.message = f"Camera: {got.problem or 'please confirm the faces'}."
        if st.kind == "roll2":
            self.picked = {d: f for d, f in zip(which, got.faces, strict=True)
                           if f is not None and not got.uncertain[which.index(d)]}
            self.read_from = (reading, got, len(self.game.history)) if got.dice else None

    def _take(self, reading: Reading) -> None:
        """``reading`` is taken as the roll awaited now: kept as :attr:`taken` (the roll log
        keeps it), once a roll: a second reading of the same roll (a die put right) is not
        another."""
        at = len(self.game.history)
        if self.taken is None or self.taken[1] != at:
            self.taken = (reading, at)

    # -- what the engine allows ---------------------------------------------------------------

    def forge_options(self) -> list[Buy]:
        """Single faces that may join the forge being built (the engine decides)."""
        p = self.game.state.current
        singles = [c.buys[0] for c in self.game.legal_purchases() if isinstance(c, Forge)]
        if not self.basket:
            return singles
        out: list[Buy] = []
        for b in singles:
            trial = copy.deepcopy(self.game)
            try:
                trial.apply(Forge(p.name, (*self.basket, b)))
            except RulesError:
                continue
            out.append(b)
        return out

    def faces_left(self) -> dict[str, int]:
        """How many of each face the Sanctuary still holds."""
        left: dict[str, int] = {}
        for _pool, _cost, faces in self.game.sanctuary_view():
            for f in faces:
                left[f] = left.get(f, 0) + 1
        return left

    # -- what the right-hand side shows ----------------------------------------------------

    def pane(self, camera: Callable[[], object] | None = None,
             ask_end: Callable[[], object] = lambda: None,
             leave: Callable[[], object] = lambda: None,
             play_code: Callable[[], object] = lambda: None) -> Pane:
        """The right-hand side for what the engine waits for. What the table does outside the
        game: ``camera`` reads the roll from the camera (None: it cannot read this game's
        dice, so no button offers it); ``ask_end`` shows the final standings; ``leave`` goes
        back to the start screen; ``play_code`` shows the play's BG Stats code."""
        game = self.game
        s = game.state
        if s.phase == "over":
            return self.over(ask_end, leave, play_code)
        if s.steps:
            st = s.steps[0]
            p = s.player(st.player)
            if st.kind == "roll2" and self.ordering is not None:
                return self.order(p, self.ordering)
            if st.kind == "roll2":
                return self.roll(p, (0, 1), camera)
            if st.kind == "roll1":
                die = st.data.get("die", -1)
                return self.roll(p, (die,) if die >= 0 else (0, 1), camera, minor=True)
            if st.kind == "celestial":
                return self.celestial(p)
            return self.choose(p)
        if self.mode == "forge" and s.phase == "action":
            return self.forge()
        if self.mode == "perform" and s.phase == "action":
            return self.feats()
        return self.action()

    def _paged(self, choices: Sequence[Choice], cols: int, rows: int) -> tuple[Choice | None,
                                                                                 ...]:
        """``rows`` x ``cols`` choices, one page at a time: when they do not fit, the last
        cell turns the page. Nothing scrolls, so a button stays where it was drawn."""
        shown, page, pages = one_page(choices, cols * rows, self.page)
        if pages > 1:
            shown.append(Choice("page:more", f"More {page + 1}/{pages}",
                                lambda: self.turn_page(page + 1)))
        return tuple(shown)

    @staticmethod
    def _columns(p: Player, button: Callable[[int, str], Choice]
                 ) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
        """Each die's faces, each face once, in the same places every time."""
        one, two = (tuple(button(d, face) for face in dict.fromkeys(p.dice[d])) for d in (0, 1))
        return one, two

    def roll(self, p: Player, dice: tuple[int, ...], camera: Callable[[], object] | None,
             minor: bool = False) -> Pane:
        """The faces of both dice (a minor blessing of one die leaves the other's greyed in
        place)."""
        what = "one die" if minor and len(dice) == 1 else "both dice" if not minor else "a die"

        def button(d: int, face: str) -> Choice:
            if minor:
                minor_roll = rolled_call(p.name, [face], d + 1)
                action: Callable[[], object] = lambda: self.call(minor_roll)  # noqa: E731
            else:
                action = lambda: self.pick_face(d, face)  # noqa: E731
            return Choice(f"die{d + 1}:{face}", face, action, enabled=d in dice,
                          selected=self.picked.get(d) == face, face=face, font=14,
                          shorten=False)

        bar = (Choice("camera", "Read the camera", camera),) if camera is not None else ()
        hint = ("Tap the face that came up." if minor else
                "Tap the face that came up on each die." if not self.picked else
                f"Die {min(self.picked) + 1}: {self.picked[min(self.picked)]}. "
                "Now the other die.")
        return Pane(f"{p.name} rolls {what}", hint, columns=self._columns(p, button), bar=bar)

    def order(self, p: Player, faces: tuple[str, str]) -> Pane:
        """"Which die first?": each die's face in its die's column (die 1 left, die 2
        right), Cancel in the bar below."""
        grid = tuple(Choice(f"first:{d + 1}", face, partial(self.pick_order, d), face=face,
                            caption=f"Die {d + 1}\nfirst", font=16, shorten=False)
                     for d, face in enumerate(faces))
        return Pane("Which die first?", f"The order changes what {p.name} gets: tap the die "
                    "to apply first.", grid, cols=2, rows=2,
                    bar=(Choice("order-cancel", "Cancel", self.cancel_order),))

    def celestial(self, p: Player) -> Pane:
        grid = []
        for f in CELESTIAL_FACES:
            grid.append(Choice(f"celestial:{f}", f,
                               partial(self.call, Rolled(p.name, (f,), celestial=True)), face=f,
                               font=14, shorten=False))
        return Pane(f"{p.name} rolls the Celestial die", "Tap the face that came up.",
                    tuple(grid), cols=3, rows=2)

    def choose(self, p: Player) -> Pane:
        options = [c for c in self.game.legal_calls() if isinstance(c, Choose)]
        choices = []
        for c in options:
            if face_art(c.option) is not None and not self.words:
                choices.append(Choice(f"choose:{c.option}", c.option, partial(self.call, c),
                                      face=c.option, caption=c.option.replace(" + ", "\n+ "),
                                      font=14, shorten=False))
            else:
                words = "Nothing" if c.option == "nothing" else c.option
                choices.append(Choice(f"choose:{c.option}", words, partial(self.call, c),
                                      font=15, shorten=False))
        step = self.game.state.steps[0]
        return Pane(f"{p.name} chooses", CHOICE_HINTS.get(str(step.data.get("tag", "")),
                                                          "Tap one of these."),
                    self._paged(choices, 2, 4), cols=2, rows=4)

    def action(self) -> Pane:
        """The active player's action: Forge, Perform and Pass (or the extra action and End
        turn) in their places, then every other call the engine allows now."""
        game = self.game
        s = game.state
        p = s.current
        calls = game.legal_calls()
        choices = []
        if s.phase == "after":
            prompt = f"{p.name}: another action for 2 sun?"
            hint = "An extra action, or end the turn."
        else:
            prompt = f"{p.name}: forge, perform a feat or pass"
            hint = "Forge faces in the Sanctuary, perform a feat, or pass."
            buys = game.legal_purchases()
            choices.append(Choice("forge", "Forge...", self.start_forge,
                                  enabled=any(isinstance(c, Forge) for c in buys)))
            choices.append(Choice("feat", "Perform a feat...", self.start_feat,
                                  enabled=any(isinstance(c, Perform) for c in buys)))
        first = [c for c in calls if isinstance(c, Pass)]
        rest = [c for c in calls if not isinstance(c, Forge | Perform | Pass)]
        for c in [*first, *rest]:
            text = c.text()
            label = text.split(": ", 1)[1] if text.startswith(f"{p.name}: ") else text
            choices.append(Choice(label, label, partial(self.call, c), shorten=False))
        return Pane(prompt, hint, self._paged(choices, 2, 5), cols=2, rows=5)

    def forge(self) -> Pane:
        """The Sanctuary: every face it sells in its place (cost and faces left beside it),
        only those the engine allows enabled; then which die and which face it covers."""
        p = self.game.state.current
        options = self.forge_options()
        if self.face is not None:
            return self.forge_over(p, self.face, options)
        wanted = {b.face for b in options}
        left = self.faces_left()
        grid = tuple(Choice(f"buy:{f}", f, partial(self.choose_sanctuary_face, f),
                            enabled=f in wanted, face=f, font=13, shorten=False,
                            caption=f"{cost} gold\n{left.get(f, 0)} left")
                     for f, cost in sanctuary_faces())
        bar = (Choice("forge-now", "Forge", self.forge_now, enabled=bool(self.basket),
                      primary=True),
               Choice("cancel", "Cancel", self.cancel_forge))
        basket = "; ".join(f"{b.face} on die {b.die} over {b.over}" for b in self.basket)
        hint = (f"To forge: {basket}. Another face, or Forge." if basket else
                "Tap a face to buy; then the die and the face it covers.")
        return Pane(f"{p.name} forges ({p.purse()} gold)", hint, grid, cols=4, rows=4, bar=bar)

    def forge_over(self, p: Player, face: str, options: list[Buy]) -> Pane:
        def button(d: int, over: str) -> Choice:
            buy = next((b for b in options if b.face == face and b.die == d + 1
                        and b.over == over), None)
            return Choice(f"over:{d + 1}:{over}", over,
                          lambda: self.add_buy(buy) if buy else None, enabled=buy is not None,
                          face=over, font=14, shorten=False)

        return Pane(f"Forge {face}", "On which die, over which face?",
                    columns=self._columns(p, button),
                    bar=(Choice("back", "Back", lambda: self.choose_sanctuary_face(None)),))

    def feats(self) -> Pane:
        """Every feat slot in its place (price and cards left); only those the engine allows
        enabled."""
        game = self.game
        legal = {c.card: c for c in game.legal_purchases() if isinstance(c, Perform)}
        grid = []
        for _slot, name, sun, moon, left in game.feat_view():
            price = feat_price(sun, moon)
            call = legal.get(name)
            if call is not None and call.ancient:
                price += f", {plural(call.ancient, 'shard')}"
            grid.append(Choice(f"feat:{name}", f"{short_card(name)}\n{price} · {left} left",
                               partial(self.perform, call) if call is not None else
                               (lambda: None), enabled=call is not None,
                               font=13, shorten=False))
        return Pane(f"{game.state.current.name} performs a feat",
                    "Tap the feat (its price is paid).", tuple(grid), cols=3, rows=5,
                    bar=(Choice("cancel", "Cancel", self.cancel_forge),))

    def over(self, ask_end: Callable[[], object], leave: Callable[[], object],
             play_code: Callable[[], object] = lambda: None) -> Pane:
        """The final places (tied players share one), the play for BG Stats, and the way
        out."""
        game = self.game
        places = []
        place = 1
        for group in game.placings():  # tied players share a place
            for name in group:
                places.append((place, name, game.score(name)))
            place += len(group)
        note = game.standings().note
        winner = game.standings().winner or ""
        # a shared victory is said without the names (two long names do not fit the prompt
        # at the largest text); the places below show who shares it
        prompt = f"{winner} wins" if " and " not in winner else "A shared victory"
        return Pane(prompt, note[0].upper() + note[1:] + "." if note else "The game is over.",
                    places=tuple(places),
                    bar=(Choice("standings", "Final standings", ask_end),
                         Choice("bgstats", "BG Stats", play_code),
                         Choice("leave", "Back to start", leave, primary=True)))


__all__ = ["Choice", "DiceForgeModel", "HeroLook", "Pane", "RollFix", "sanctuary_faces",
           "short_card"]
