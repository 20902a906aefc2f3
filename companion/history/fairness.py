"""Are these dice fair? Face frequencies, a chi-square test, confidence intervals, a verdict.

For each set and colour of pip dice: how often each face came up, Pearson's chi-square
goodness-of-fit test against equal faces (``scipy.stats.chisquare``), a 95% Wilson interval
per face (``scipy.stats.binomtest``), and a verdict in plain words that says no more than the
numbers do. "A firm answer" has one meaning throughout: enough rolls that a die showing one
face 20% more often than it should (1/5 instead of 1/6 on a d6) would be flagged 9 times in 10
(the noncentral chi-square's power, ``scipy.stats.ncx2``); :func:`rolls_needed` gives that
number. A roll here is one die landing: five red dice thrown together are five red rolls.

scipy is imported inside the functions that use it, so the app pays for it only when the
fairness screen opens.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: The faces of a pip die.
PIP_FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
#: The test's significance level: p below it is evidence of bias.
ALPHA = 0.05
#: The loading a firm answer must be able to see: one face this much more likely (relative).
LOADING = 0.20
#: How often a firm answer sees that loading.
POWER = 0.90
#: Fewest expected rolls per face before the chi-square approximation is trusted.
MIN_EXPECTED = 5


@dataclass(frozen=True)
class FaceShare:
    """One face: how often it came up, its share with a 95% interval, and the fair share."""

    face: str
    count: int
    share: float
    low: float
    high: float
    expected: float


@dataclass(frozen=True)
class Fairness:
    """The fairness of one group of dice.

    ``status``: "none" (no counted rolls), "too-few" (not enough for the test), "fair" (no
    evidence of bias), "biased" (p below ``ALPHA``) or "untested" (faces the companion cannot
    judge: icon dice). ``needed`` is the number of rolls for a firm answer (see the module).
    """

    label: str
    rolls: int
    corrected: int
    unsure: int
    faces: tuple[FaceShare, ...]
    status: str
    verdict: str
    chi2: float | None = None
    p_value: float | None = None
    needed: int | None = None
    face: str | None = None

    @property
    def more_needed(self) -> int:
        """Rolls still to make for a firm answer (0 once there are enough)."""
        return 0 if self.needed is None else max(0, self.needed - self.rolls)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "rolls": self.rolls, "corrected": self.corrected,
                "unsure": self.unsure, "status": self.status, "verdict": self.verdict,
                "chi2": self.chi2, "p_value": self.p_value, "needed": self.needed,
                "more_needed": self.more_needed, "face": self.face,
                "faces": [{"face": f.face, "count": f.count, "share": round(f.share, 4),
                           "low": round(f.low, 4), "high": round(f.high, 4),
                           "expected": round(f.expected, 4)} for f in self.faces]}


@lru_cache(maxsize=64)
def rolls_needed(faces: int = 6, loading: float = LOADING, alpha: float = ALPHA,
                 power: float = POWER) -> int:
    """Rolls of a ``faces``-sided die for the chi-square test at ``alpha`` to flag, with
    probability ``power``, a die showing one face ``loading`` more often (relative) than fair
    and the others equally less. For a d6 at the defaults: about 2,060."""
    from scipy import optimize, stats

    if faces < 2 or not 0 < loading < faces - 1:
        raise ValueError(f"rolls_needed: {faces} faces with loading {loading} is no die")
    fair = 1.0 / faces
    heavy = fair * (1 + loading)
    rest = (1 - heavy) / (faces - 1)
    effect = ((heavy - fair) ** 2 + (faces - 1) * (rest - fair) ** 2) / fair  # Cohen's w^2
    df = faces - 1
    critical = stats.chi2.ppf(1 - alpha, df)
    n = float(optimize.brentq(lambda n: stats.ncx2.sf(critical, df, n * effect) - power,
                              1.0, 1e9))
    return math.ceil(n)


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def _n(n: int) -> str:
    return f"{n:,}"


def assess(counts: Mapping[str, int], label: str = "these dice",
           faces: Sequence[str] | None = PIP_FACES, *, corrected: int = 0,
           unsure: int = 0, alpha: float = ALPHA) -> Fairness:
    """Judge one group of dice from its face counts (``{"1": 40, "2": 51, ...}``).

    ``faces`` are the die's faces, equally likely if the die is fair (None: unknown faces,
    only the frequencies are given). A counted face the die does not have makes the group
    untested. ``corrected`` and ``unsure`` are carried into the verdict's numbers.
    """
    from scipy import stats

    observed = {str(f): int(n) for f, n in counts.items() if n}
    n = sum(observed.values())
    known = faces is not None and set(observed) <= set(faces)
    names = list(faces) if faces is not None and known else sorted(observed)
    k = len(names)
    shares = []
    for face in names:
        c = observed.get(face, 0)
        if n:
            ci = stats.binomtest(c, n).proportion_ci(confidence_level=0.95, method="wilson")
            low, high = float(ci.low), float(ci.high)
        else:
            low, high = 0.0, 1.0
        shares.append(FaceShare(face, c, c / n if n else 0.0, low, high,
                                1.0 / k if known and k else 0.0))

    def make(status: str, verdict: str, chi2: float | None = None, p: float | None = None,
             needed: int | None = None, face: str | None = None) -> Fairness:
        return Fairness(label, n, corrected, unsure, tuple(shares), status, verdict, chi2, p,
                        needed, face)

    tail = f", {_n(corrected)} corrected by the players" if corrected else ""
    if not known:
        return make("untested", f"{label}: {_n(n)} rolls{tail}; the companion does not know "
                                "these faces, so it cannot test them")
    needed = rolls_needed(k, alpha=alpha)
    if n == 0:
        return make("none", f"{label}: no confident rolls yet; about {_n(needed)} give a "
                            "firm answer", needed=needed)
    if n < MIN_EXPECTED * k:
        return make("too-few", f"{label}: too few rolls to judge ({_n(n)}{tail}); the test "
                               f"starts at {MIN_EXPECTED * k}, a firm answer takes about "
                               f"{_n(needed)}", needed=needed)
    result = stats.chisquare([observed.get(f, 0) for f in names])
    chi2, p = float(result.statistic), float(result.pvalue)
    expected = n / k
    residuals = {f: (observed.get(f, 0) - expected) / math.sqrt(expected) for f in names}
    face = max(names, key=lambda f: abs(residuals[f]))
    if p < alpha:
        how = "too often" if residuals[face] > 0 else "too rarely"
        seen = observed.get(face, 0) / n
        verdict = (f"{label} show {face} {how}: {_p_text(p)} after {_n(n)} rolls{tail} "
                   f"({face} came up {seen:.0%} of the time, {1 / k:.0%} expected)")
        if p >= 0.001 and n < needed:
            verdict += (f"; fair dice give a spread this uneven 1 time in {round(1 / p)}: about "
                        f"{_n(needed - n)} more rolls would confirm it")
        return make("biased", verdict, chi2, p, needed, face)
    verdict = f"{label}: no evidence of bias after {_n(n)} rolls{tail} ({_p_text(p)})"
    if n < needed:
        verdict += (f"; a die {LOADING:.0%} heavy on one face would still hide: about "
                    f"{_n(needed - n)} more rolls for a firm answer")
    else:
        verdict += f"; a die {LOADING:.0%} heavy on one face would very likely have shown"
    return make("fair", verdict, chi2, p, needed, face)


def assess_counts(groups: Sequence[Any]) -> list[Fairness]:
    """:func:`assess` for each :class:`~companion.history.rolls.FaceCounts` group: pip dice
    are tested against equal faces, icon dice are listed untested."""
    return [assess(g.faces, g.label, PIP_FACES, corrected=g.corrected_total, unsure=g.unsure)
            for g in groups]
