"""Are these dice fair? Face frequencies, a chi-square test, confidence intervals, a verdict.

For each set and colour of pip dice: how often each face came up, Pearson's chi-square
goodness-of-fit test against equal faces, a 95% exact interval per
face (Clopper-Pearson), and a verdict in plain words that says
no more than the numbers do. "A firm answer" has one meaning throughout: enough rolls that a
die showing one face 20% more often than it should (1/5 instead of 1/6 on a d6) would be
flagged 9 times in 10; :func:`rolls_needed` gives that number (the noncentral chi-square's
estimate, settled by simulation). A roll here is one die landing: five red dice thrown
together are five red rolls.

The distributions come from scipy: ``scipy.special`` for the verdicts (the same numbers as
``scipy.stats.chisquare`` and ``binomtest``, checked by the tests, at a third of the memory),
``scipy.stats`` for the simulation behind :func:`rolls_needed`. Both are imported inside the
functions that use them, so the app pays for them only when the fairness screen opens.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fairness:
        """Back from :meth:`to_json` (what ``companion stats --dice --json`` prints; the
        shares rounded to 4 decimals). Raises ValueError naming what is missing or wrong."""
        try:
            faces = tuple(FaceShare(str(f["face"]), int(f["count"]), float(f["share"]),
                                    float(f["low"]), float(f["high"]), float(f["expected"]))
                          for f in data["faces"])
            return cls(str(data["label"]), int(data["rolls"]), int(data["corrected"]),
                       int(data["unsure"]), faces, str(data["status"]), str(data["verdict"]),
                       _maybe(data.get("chi2"), float), _maybe(data.get("p_value"), float),
                       _maybe(data.get("needed"), int), _maybe(data.get("face"), str))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a dice verdict: {e!r} in {str(dict(data))[:200]}") from e


def _maybe(value: Any, kind: type[Any]) -> Any:
    return None if value is None else kind(value)


#: Simulated games per candidate number of rolls in :func:`rolls_needed`, and their seed.
SIMULATIONS = 20_000
SIMULATION_SEED = 23


def loaded_die(faces: int = 6, loading: float = LOADING) -> list[float]:
    """Face probabilities of a die with its last face ``loading`` more likely (relative)
    than fair and the others equally less: ``[0.16] * 5 + [0.2]`` for a d6 at 20%."""
    if faces < 2 or not 0 < loading < faces - 1:
        raise ValueError(f"a die of {faces} faces loaded by {loading}: no such die")
    heavy = (1 + loading) / faces
    return [(1 - heavy) / (faces - 1)] * (faces - 1) + [heavy]


def detection_rate(rolls: int, probabilities: Sequence[float], alpha: float = ALPHA,
                   trials: int = SIMULATIONS, seed: int = SIMULATION_SEED) -> float:
    """How often the chi-square test at ``alpha`` flags a die with these face probabilities
    after ``rolls`` rolls: ``trials`` simulated series (numpy), tested by scipy."""
    import numpy as np
    from scipy import stats

    rng = np.random.default_rng([seed, rolls])
    counts = rng.multinomial(rolls, list(probabilities), size=trials)
    return float(np.mean(stats.chisquare(counts, axis=1).pvalue < alpha))


#: :func:`rolls_needed` for a d6 at the defaults, worked out once (0.3 s) and checked by the
#: tests against the computation; other dice are computed when first asked.
_WORKED_OUT = {(6, LOADING, ALPHA, POWER): 2167}


def rolls_needed(faces: int = 6, loading: float = LOADING, alpha: float = ALPHA,
                 power: float = POWER) -> int:
    """Rolls of a ``faces``-sided die after which the test at ``alpha`` flags, ``power`` of
    the time, a die loaded by ``loading`` on one face; see :func:`work_out_rolls_needed`."""
    known = _WORKED_OUT.get((faces, loading, alpha, power))
    return known if known is not None else work_out_rolls_needed(faces, loading, alpha, power)


@lru_cache(maxsize=64)
def work_out_rolls_needed(faces: int = 6, loading: float = LOADING, alpha: float = ALPHA,
                 power: float = POWER) -> int:
    """Rolls of a ``faces``-sided die after which the test at ``alpha`` flags, ``power`` of
    the time, a die loaded by ``loading`` on one face (:func:`loaded_die`).

    Starts from the noncentral chi-square's answer (``scipy.stats.ncx2``), which is a little
    optimistic at these counts, then settles it by simulation (:func:`detection_rate`).
    For a d6 at the defaults: about 2,200.
    """
    from scipy import optimize, stats

    probabilities = loaded_die(faces, loading)
    fair = 1.0 / faces
    effect = sum((q - fair) ** 2 for q in probabilities) / fair  # Cohen's w squared
    df = faces - 1
    critical = stats.chi2.ppf(1 - alpha, df)
    approx = float(optimize.brentq(lambda n: stats.ncx2.sf(critical, df, n * effect) - power,
                                   1.0, 1e9))
    low, high = max(1, int(approx * 0.8)), int(approx * 1.6) + 1
    while detection_rate(high, probabilities, alpha) < power:  # never in practice
        low, high = high, high * 2
    while high - low > max(1, high // 200):
        middle = (low + high) // 2
        if detection_rate(middle, probabilities, alpha) >= power:
            high = middle
        else:
            low = middle
    return high


def intervals(counts: Sequence[int], confidence: float = 0.95) -> list[tuple[float, float]]:
    """Exact (Clopper-Pearson) intervals for each face's share: the same numbers as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")`` (the tests check), from the
    inverse incomplete beta function in ``scipy.special`` for all faces at once."""
    import numpy as np
    from scipy import special

    k = np.asarray(counts, dtype=float)
    n = k.sum()
    if n == 0:
        return [(0.0, 1.0)] * len(k)
    tail = (1 - confidence) / 2
    low = np.where(k > 0, special.betaincinv(np.maximum(k, 1), n - k + 1, tail), 0.0)
    high = np.where(k < n, special.betaincinv(k + 1, np.maximum(n - k, 1), 1 - tail), 1.0)
    return [(float(a), float(b)) for a, b in zip(low, high, strict=True)]


def chi_square(counts: Sequence[int]) -> tuple[float, float]:
    """Pearson's chi-square statistic against equal faces and its p-value: the numbers
    ``scipy.stats.chisquare(counts)`` gives (the tests check), with the p-value from
    ``scipy.special.chdtrc``. scipy.special loads in a fraction of the time and memory of
    scipy.stats (26 MB against 76 MB here), which matters inside the app."""
    import numpy as np
    from scipy import special

    observed = np.asarray(counts, dtype=float)
    expected = observed.sum() / len(observed)
    statistic = float(((observed - expected) ** 2 / expected).sum())
    return statistic, float(special.chdtrc(len(observed) - 1, statistic))


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
    observed = {str(f): int(n) for f, n in counts.items() if n}
    n = sum(observed.values())
    known = faces is not None and set(observed) <= set(faces)
    names = list(faces) if faces is not None and known else sorted(observed)
    k = len(names)
    counted = [observed.get(face, 0) for face in names]
    shares = [FaceShare(face, c, c / n if n else 0.0, low, high, 1.0 / k if known else 0.0)
              for face, c, (low, high) in zip(names, counted, intervals(counted), strict=True)]

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
    chi2, p = chi_square([observed.get(f, 0) for f in names])
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


#: Bump when a verdict's numbers or words change: verdicts kept from before are worked out again.
VERDICTS_VERSION = 1


def _counts_key(journal: Path) -> str | None:
    """What the verdicts of ``journal`` depend on, as a digest: the face counts of every
    group (``roll_counts``) and :data:`VERDICTS_VERSION`. None when there is no journal."""
    import hashlib
    import json

    from companion.history.rolls import RollLog

    if not journal.is_file():
        return None
    with RollLog(journal) as log:
        rows = [list(r) for r in log.count_rows()]
    return hashlib.sha256(json.dumps([VERDICTS_VERSION, rows]).encode()).hexdigest()


def kept_verdicts(journal: Path) -> tuple[Fairness, ...] | None:
    """The verdicts :func:`verdicts_apart` last worked out for ``journal``, if its dice's
    counts have not changed since (a lookup, no scipy); None otherwise."""
    import json

    from companion.history.rolls import RollLog

    key = _counts_key(journal)
    if key is None:
        return None
    with RollLog(journal) as log:
        kept = log.kept_verdicts(key)
    if kept is None:
        return None
    try:
        return tuple(Fairness.from_json(g) for g in json.loads(kept))
    except (ValueError, TypeError):
        return None  # a kept answer that does not read back is worked out again


def verdicts_apart(journal: Path, timeout: float = 120.0) -> tuple[Fairness, ...]:
    """Every group of dice of ``journal`` judged in a child process (``companion stats --dice
    --json``), so the caller never loads scipy (the app: ~28 MB). The answer is kept in the
    journal (``roll_verdicts``) until the dice's counts change: asking again is a lookup
    (:func:`kept_verdicts`). Raises RuntimeError saying what went wrong when the command
    fails."""
    import json
    import subprocess
    import sys

    from companion.history.rolls import RollLog

    kept = kept_verdicts(journal)
    if kept is not None:
        return kept
    key = _counts_key(journal)
    command = [sys.executable, "-m", "companion", "stats", "--dice", "--json", "--journal",
               str(journal)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(f"companion stats --dice did not run: {e}") from e
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise RuntimeError(f"companion stats --dice failed: {said[-1] if said else '?'}")
    try:
        groups = json.loads(done.stdout.strip().splitlines()[-1])["groups"]
        found = tuple(Fairness.from_json(g) for g in groups)
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise RuntimeError(f"companion stats --dice gave no verdicts: {e}") from e
    if key is not None and key == _counts_key(journal):  # no roll came in meanwhile
        with RollLog(journal) as log:
            log.keep_verdicts(key, json.dumps([f.to_json() for f in found]))
    return found
