"""The Dice tab: each group of dice the camera read, its face shares and the fairness verdict in
words (:class:`DiceTab`)."""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

from companion import theme
from companion.history import chartdata
from companion.history.fairness import Fairness, verdicts_apart
from companion.history.screen.pages import HistoryPages
from companion.history.screen.rows import esc, fill_rows
from companion.widgets import w

_STATUS = {"fair": "no evidence of bias", "biased": "shows a bias", "too-few": "too few rolls",
           "none": "no confident rolls", "untested": "icon faces, not tested"}


class DiceTab(HistoryPages):
    """The dice verdicts, worked out in a child process (scipy stays out of the app), shown in
    the statistics' panes."""

    dice_choice: int  # the group of dice shown

    def load_dice(self) -> None:
        """The dice verdicts, worked out by ``companion stats --dice --json`` in a child
        process (scipy stays out of the app)."""
        if self.dice is None:
            self.chart.show(None, "Working out the dice verdicts...")

        def job(path: Path) -> tuple[Fairness, ...]:
            return verdicts_apart(path)

        def done(found: tuple[Fairness, ...]) -> None:
            self.dice = found
            self.dice_choice = min(self.dice_choice, max(0, len(found) - 1))
            self._draw_stats()

        self.worker.apart(job, done, self.failed("The dice could not be judged"))

    def choose_dice(self, index: int) -> None:
        self.dice_choice = index
        self._draw_stats()

    def _draw_dice(self) -> None:
        found = self.dice
        self.left.add_widget(self.stat_list)
        if found is None:
            fill_rows(self.app, self.stat_rows, [])
            self.chart.show(None, "Working out the dice verdicts...")
            return
        if not found:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(w("TLabel", text="No rolls yet.", color=theme.MUTED))
            self.chart.show(None, "No rolls recorded yet: the camera records every settled "
                                  "roll of a game.")
            return
        fill_rows(self.app, self.stat_rows, [(
            f"[b]{esc(f.label[:1].upper() + f.label[1:])}[/b]", "",
            f"{f.rolls:,} rolls: " + _STATUS.get(f.status, f.status)
            + (f" ({f.face})" if f.status == "biased" else ""),
            partial(self.choose_dice, i), i == self.dice_choice) for i, f in enumerate(found)])
        # the verdict in words under the groups, so the bars get the chart's whole height
        chosen = found[self.dice_choice]
        self.left.add_widget(self.card)
        self.card_text.text = esc(chosen.verdict[:1].upper() + chosen.verdict[1:] + ".") + (
            f"\n({chosen.unsure:,} unsure dice not counted.)" if chosen.unsure else "")
        self.chart.show(dataclasses.replace(chartdata.dice(chosen), note=""))

