"""The side panel of the Occulites table, phase by phase: what it says (the lines, a player's
name stressed) and which controls it offers, lit or not. Read from the table's model through
:class:`TableState`, so the panels need not import it."""

from __future__ import annotations

from typing import Protocol

from companion.games.emphasis import Text, plain, strong
from companion.games.occulites.adapter import SlotRead
from companion.games.occulites.reveal import Outcome, Resolving
from companion.games.occulites.view import CARDS, Button, Panel
from companion.words import plural
from rules.occulites import COLOURS, POOL, TRIBE_NAMES, OcculitesGame

#: A panel's lines and its controls by key (see :class:`~.view.OcculitesView`).
Parts = tuple[list[Text], dict[str, Button]]


class TableState(Protocol):
    """What the panels read of the table's model (and the Share Knowledge steps they reset)."""

    sel: tuple[str, int] | None
    drafts: dict[str, list[SlotRead | None]]
    flagged: dict[str, set[int]]
    resolving: Resolving | None
    share_give: str | None
    share_source: str | None
    notice: str

    @property
    def game(self) -> OcculitesGame: ...

    @property
    def players(self) -> list[str]: ...

    @property
    def timer_on(self) -> bool: ...

    def chooser_now(self) -> str | None: ...

    def can_confirm(self) -> bool: ...

    def may_forfeit(self) -> bool: ...

    def outcome_for(self, number: int) -> Outcome | None: ...


def panel_parts(table: TableState, panel: Panel) -> tuple[list[Text], dict[str, Button], bool]:
    """The panel's lines and controls (and, for Share Knowledge, whether colours are shown)."""
    if panel == "share":
        return panel_share(table)
    parts = {"tribes": panel_tribes, "draft": panel_draft, "allocate": panel_allocate,
             "resolving": panel_resolving, "over": panel_over}[panel](table)
    return parts[0], parts[1], True


def panel_tribes(table: TableState) -> Parts:
    who = table.chooser_now()
    st = table.game.state
    taken = {t for t in st.tribe_of.values() if t}
    controls = {f"tribe:{t}": Button(enabled=t not in taken
                                     and t in table.game.options.tribes)
                for t in TRIBE_NAMES}
    return [strong(str(who)) + ": which Tribe are you most interested in? (Tap a player to "
            "choose for them.)"], controls


def panel_draft(table: TableState) -> Parts:
    who = table.game.whose_turn()
    pool = table.game.state.pool
    controls = {f"take:{c}": Button(f"{c}\n{pool[c]} left", pool[c] > 0) for c in COLOURS}
    return [strong(str(who)) + ": take one die from the pool."], controls


def panel_allocate(table: TableState) -> Parts:
    st = table.game.state
    waiting = [p for p in table.players if p not in st.lineups]
    if table.sel is not None:
        p, i = table.sel
        slot = table.drafts.get(p, [None] * CARDS)[i]
        if i in table.flagged.get(p, set()) and slot is not None:
            prompt = strong(f"{p}, card {i + 1}") + (": the camera is not sure of this die. "
                                                     "OK, or tap its colour and pips.")
        else:
            prompt = strong(f"{p}, card {i + 1}") + ": tap the colour, then the pips."
    elif waiting:
        prompt = plain(f"Waiting for {plural(len(waiting), 'line-up')}: Camera reads them, or "
                       "tap a player's first die.")
    else:
        prompt = plain("Everyone is lined up: Reveal!")
    held = st.dice.get(table.sel[0], {}) if table.sel else {}
    controls = {f"colour:{c}": Button(enabled=table.sel is not None and bool(held.get(c)))
                for c in COLOURS}
    controls |= {f"pips:{n}": Button(str(n), table.sel is not None) for n in range(1, 7)}
    timed = table.game.options.timer and not table.timer_on  # Timer mode: roll, then tap
    controls |= {
        "confirm": Button("OK", table.can_confirm()),
        "clear": Button("Clear", table.sel is not None or bool(table.drafts)),
        "roll": Button("Roll!" if timed else "Timer", not table.timer_on, selected=timed),
        "reveal": Button("Reveal", not waiting or table.may_forfeit(),
                         main=not waiting or table.may_forfeit()),
    }
    return [prompt], controls


def panel_resolving(table: TableState) -> Parts:
    r = table.resolving
    assert r is not None
    game = table.game
    step = r.step
    out = table.outcome_for(step)
    text = out.text if out else f"Card {step}: nothing to resolve."
    if step < len(r.outcomes):
        label = f"Card {step + 1} >"
    elif game.phase == "share" and r.round == game.state.round:
        label = "Share Knowledge"
    elif game.phase == "over":
        label = "Final scores"
    else:
        label = f"Round {game.state.round}"
    return [plain(line) for line in (text, *r.extra.get(step, []))], {
        "back": Button("<", step > 1), "next": Button(label, main=True)}


def panel_share(table: TableState) -> tuple[list[Text], dict[str, Button], bool]:
    g = table.game
    st = g.state
    number, who = st.share_queue[0]
    nth = st.shares[who] + 1
    choices = g.share_choices()
    lines = [strong(who) + (f" won card {number} alone: Share Knowledge? Share {nth} of 3 "
                            f"costs {plural(nth, 'point')} ({who} has {st.points[who]}).")]
    give, source = table.share_give, table.share_source
    if not choices:
        lines.append(plain("No swap is possible now: Pass."))
        table.share_give = table.share_source = give = source = None
    elif give is None:
        lines.append(plain("1. Which of your dice do you give?"))
    elif source is None:
        lines.append(plain(f"2. Your {give} die for a die from where?"))
    elif source == POOL:
        lines.append(plain(f"3. Your {give} die for which die of the pool?"))
    else:
        lines.append(plain(f"3. Your {give} die for which of {source}'s dice?"))
    giving = give is None or source is not None
    if give is None:
        can = {c.give for c in choices}
    else:
        can = {c.take for c in choices if c.give == give and c.source == source}
    sources = {c.source for c in choices if c.give == give}
    controls = {f"share:{c}": Button(enabled=c in can) for c in COLOURS}
    controls |= {f"source:{s}": Button(enabled=s in sources) for s in (POOL, *table.players)}
    controls |= {"share-back": Button("Back", give is not None),
                 "pass": Button("Pass", main=True)}
    return lines, controls, giving


def panel_over(table: TableState) -> Parts:
    s = table.game.standings()
    ranked = sorted(s.rows, key=lambda r: -int(r[2]))
    lines = [strong(f"Winner: {s.winner}") + (f" ({s.note})" if s.note else "")]
    lines += [plain(f"{r[0]}{f' ({r[1]})' if r[1] != '-' else ''}: "
                    f"{plural(int(r[2]), 'point')}, {r[3]} won alone") for r in ranked]
    table.notice = ""  # the round's end and the winner are said here in full
    return lines, {"finish": Button("Finish", main=True), "bgstats": Button("BG Stats")}


__all__ = ["TableState", "panel_parts"]
