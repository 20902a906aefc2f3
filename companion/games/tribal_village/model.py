"""Tribal Village at the table, without Kivy: what the screen shows and what each tap means.

The model keeps no rule of the game. What may be tapped comes from the engine: its
``legal_calls()`` (cards that may be played, decision answers), its screen helpers
(``current_player``, ``waiting_for()``, ``trick_verdict()``, ``is_on_suit()``, ``hand_score()``,
``team_of()``) and, where a choice needs checking before it is offered (the first lead's card,
Raking Talons' discard), a dry run of the call (``game.is_legal``). Every tap that completes a
call goes through ``session.try_call``, so a refusal shows the engine's own reason.

:meth:`TribalVillageModel.view` is everything the screen draws
(:class:`~.view.TribalVillageView`, plain data: a player's name comes on its own, never inside
markup); :meth:`TribalVillageModel.tap` takes a tap on a key. The choices are drawn by stage:
the setup (:mod:`.setup`), the decisions the game waits for (:mod:`.decisions`), and play and
a card's ability here, with the building blocks of :mod:`.choices`; the words come from
:mod:`.texts`. Tested as plain Python (tests/companion/).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.tribal_village.decisions import DecisionChoices
from companion.games.tribal_village.setup import SetupChoices
from companion.games.tribal_village.texts import allies_line, card_lines, prompt, verdict
from companion.games.tribal_village.view import (
    PLAY_ROWS,
    Block,
    PlayerView,
    TribalVillageView,
    grid_cols,
    short_objective,
)
from companion.session import SessionChange
from companion.words import plural
from rules.tribal_village import Play
from rules.tribal_village.cards import tribe_of


@dataclass
class TribalVillageModel(SetupChoices, DecisionChoices):
    """The table's model: half-made choices between taps (never game state)."""

    def __post_init__(self) -> None:
        self.refresh()

    def on_session(self, change: SessionChange) -> None:
        """The session changed (its host hands every change here before the screen draws)."""
        if change.game_changed:
            self.refresh()

    @property
    def setup_rows(self) -> int:
        """Rows the setup's choices take: its tabs, the players, the card picker."""
        players = len(self.game.setup.players)
        return 3 + -(-players // grid_cols(players))

    def refresh(self) -> None:
        """The game changed: half-made choices are forgotten."""
        done = len(self.game.history)
        if done != self._seen:
            self._seen = done
            self._reset_local()

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note): above the verdict."""
        self.notice = text

    # -- the view --------------------------------------------------------------------------

    def view(self) -> TribalVillageView:
        """What the screen draws now (and which action each key's tap takes)."""
        game = self.game
        s = game.state
        self.blocks, self.beside, self.actions = [], {}, {}
        hands = game.options.hands
        where = "Game over" if game.is_over else f"Hand {s.hand_no} of {hands}"
        if s.phase == "play" and not game.is_over:
            tricks = sum(len(v) for v in s.villages.values())
            where += f" · trick {tricks + 1}"
        setup = s.phase == "setup" and not game.is_over
        if game.is_over:
            self._draw_over()
        elif setup:
            self._draw_setup()
        elif s.pending:
            self._draw_pending()
        elif self.card is not None:
            self._draw_ability()
        else:
            self._draw_play()
        # after the choices: a setup step may set what it says
        said = verdict(game, self.setup_mode, len(self.reveal_sel))
        return TribalVillageView(where, allies_line(game), prompt(game, self.setup_mode), said,
                         self.session.message, self.notice, self._players(),
                         tuple(self.blocks), dict(self.beside), setup,
                         self.setup_rows if setup else PLAY_ROWS)

    def tap(self, key: str) -> bool:
        """A tap on the choice ``key`` as the view shows it now; False when no such choice can
        be tapped (it is not shown, or not enabled)."""
        view = self.view()
        shown = [c for b in view.blocks for c in b.choices] + list(view.beside.values())
        if not any(c.key == key and c.enabled for c in shown) or key not in self.actions:
            return False
        self.actions[key]()
        return True

    def keys(self) -> list[str]:
        """Every choice shown now, enabled or not."""
        view = self.view()
        return [c.key for b in view.blocks for c in b.choices if c.key] + list(view.beside)

    def _players(self) -> tuple[PlayerView, ...]:
        game = self.game
        s = game.state
        current = game.current_player if s.phase == "play" and not s.pending else None
        played = {c.player: c for c in s.trick}
        out = []
        for who in game.setup.players:
            objective = s.objective.get(who)
            team = game.team_of(who)
            first = [plural(s.hand_count[who], "card"), plural(len(s.villages[who]), "trick")]
            if team:
                first.insert(0, f"team {team}")
            extras = []
            if s.tokens[who]:
                extras.append(plural(s.tokens[who], "token"))
            if s.nets.get(who):
                extras.append(f"net on {s.nets[who]}")
            detail = " · ".join(first) + ("\n" + " · ".join(extras) if extras else "")
            c = played.get(who)
            text = card_lines(c) if c is not None else "to play" if who == current else ""
            total = sum(h[who] for h in s.hand_scores)
            if game.is_over or (s.phase == "setup" and s.hand_scores):
                score, under = str(total), "total"
            elif s.hand_scores:
                now = game.hand_score(who)
                score, under = str(now), f"total {total + now}"
            else:
                score, under = str(game.hand_score(who)), "this hand"
            out.append(PlayerView(who, short_objective(objective) if objective else "", detail,
                                  text, c is None and who == current, score, under,
                                  who == current))
        return tuple(out)

    # -- play: a card by two taps, then its ability ---------------------------------------------

    def _draw_play(self) -> None:
        game = self.game
        s = game.state
        who = game.current_player
        assert who is not None  # a card is awaited from the player on turn
        plays = self._plays()
        allowed = {c.card for c in plays}
        hot = {c for c in allowed if game.is_on_suit(c)}
        held = s.tokens[who]
        if held:  # Wild Luftle tokens on the next card: -held .. +held, none at first
            n = self.tokens
            said = "none" if n == 0 else f"{n:+d}"
            self._row([self._choice("tokens:-", "-1", lambda: self._set(tokens=n - 1),
                                    enabled=n > -min(held, 3), font=18, width=64),
                       self._choice("tokens:+", "+1", lambda: self._set(tokens=n + 1),
                                    enabled=n < min(held, 3), font=18, width=64)],
                      text=f"Luftle tokens on the card: {said} (has {held})")
        self._card_picker(allowed, hot, self._chosen)

    def _chosen(self, card: str) -> None:
        """A card was tapped: play it, or first ask for its ability's choice."""
        game = self.game
        who = game.current_player
        assert who is not None
        variants = [c for c in self._plays() if c.card == card]
        if any(c.net or c.take or c.swap for c in variants):
            self._set(card=card, tribe=None)
            return
        self._call(Play(who, card, self.tokens))

    def _send_play(self, *, net: str | None = None, take: str | None = None,
                   discard: str | None = None, swap: tuple[str, str] | None = None) -> None:
        game = self.game
        who = game.current_player
        assert self.card is not None and who is not None
        self._call(Play(who, self.card, self.tokens, net=net, take=take, discard=discard,
                        swap=swap))

    def _draw_ability(self) -> None:
        game = self.game
        card = self.card
        assert card is not None
        variants = [c for c in self._plays() if c.card == card]
        tribe = tribe_of(card)
        back = self._choice("ability:back", "Other card", lambda: self._set(card=None), font=15)
        skip = self._choice("ability:skip", "Don't use it", lambda: self._send_play(), font=15)
        if tribe == "Hydris":
            # The question never takes the place of the tribe buttons the next player taps
            # first, nor of the value just tapped (a double tap would answer it): the net
            # goes by a button beside each player's name on the right, "Other card" and
            # "Don't use it" stand on the top row, above what the question asks, and the
            # rows of the tribes and values below stay empty.
            self._row([back, skip])
            self._note(f"{card}: Hunting Net in front of whom? Tap Net beside their name.")
            self.blocks.append(Block("filler"))
            targets = sorted({c.net for c in variants if c.net})
            for p in targets:
                # the button takes the place of the card played in this trick (which does
                # not matter to the question), so the name and the points keep theirs
                self.beside[p] = self._choice("net:" + p, "Net",
                                              lambda p=p: self._send_play(net=p), hot=True,
                                              font=15, width=64)
        elif tribe == "Nimbus" and self.take is None:
            self._note(f"{card} off suit: Raking Talons takes a card", back)
            takes = sorted({c.take for c in variants if c.take})
            self._grid([*(self._choice("take:" + t, t, lambda t=t: self._set(take=t), hot=True)
                          for t in takes), skip], cols=3)
        elif tribe == "Nimbus":
            take = self.take
            assert take is not None
            self._note(f"Took {take}: discard a card into the trick",
                       self._choice("ability:back", "Other take",
                                    lambda: self._set(take=None), font=15))
            who = game.current_player
            assert who is not None
            allowed = {c for c in [take, *self._possible(who)]
                       if game.is_legal(Play(who, card, self.tokens, take=take,
                                             discard=c).text())}
            self._card_picker(allowed, {take},
                              lambda c: self._send_play(take=take, discard=c))
        elif tribe == "Boletus":
            self._note(f"{card} off suit: swap two alliance cards", back)
            pairs = {c.swap for c in variants if c.swap}
            first = self.swap_first
            widgets = []
            for g in game.state.layout:
                for t in g:
                    ok = any(t in pair for pair in pairs) if first is None else (
                        t == first or (first, t) in pairs or (t, first) in pairs)
                    widgets.append(self._choice("swap:" + t, t, lambda t=t: self._swap_tap(t),
                                                enabled=ok, selected=first == t))
            self._grid([*widgets, skip], cols=3 if len(widgets) < 6 else 4)

    def _swap_tap(self, tribe: str) -> None:
        first = self.swap_first
        if first is None or first == tribe:
            self._set(swap_first=None if first == tribe else tribe)
            return
        self._send_play(swap=(first, tribe))

    # -- the end ------------------------------------------------------------------------------

    def _draw_over(self) -> None:
        """The winner above, the totals on the right; the standings table, the play for BG
        Stats and the way back (answered by the screen: :data:`SCREEN_KEYS`)."""
        self._row([self._choice("over:standings", "Final standings", lambda: None),
                   self._choice("over:bgstats", "BG Stats", lambda: None),
                   self._choice("over:leave", "Back to start", lambda: None, hot=True)])


__all__ = ["TribalVillageModel"]
