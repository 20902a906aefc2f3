"""The fairness verdict is right: fair dice pass at the stated rate, a loaded die is found
within the rolls the verdict predicts. Simulated with fixed seeds."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from companion.history.fairness import (
    ALPHA,
    PIP_FACES,
    POWER,
    assess,
    chi_square,
    intervals,
    loaded_die,
    rolls_needed,
    work_out_rolls_needed,
)

SEED = 2026


def _faces(counts: np.ndarray) -> dict[str, int]:
    return dict(zip(PIP_FACES, (int(c) for c in counts), strict=True))


def test_fair_dice_show_no_evidence_of_bias_about_95_times_in_100() -> None:
    rng = np.random.default_rng(SEED)
    results = [assess(_faces(c), "the white dice")
               for c in rng.multinomial(600, [1 / 6] * 6, size=1000)]
    fair = [r for r in results if r.status == "fair"]
    rate = len(fair) / len(results)
    assert 0.93 <= rate <= 0.97, rate  # 1 - ALPHA = 0.95; this seed gives 0.942
    assert all("no evidence of bias after 600 rolls" in r.verdict for r in fair)
    flagged = [r for r in results if r.status == "biased"]
    assert all(r.p_value is not None and r.p_value < ALPHA for r in flagged)
    assert all(" too often" in r.verdict or " too rarely" in r.verdict for r in flagged)


def test_a_die_loaded_20_percent_on_one_face_is_found_within_the_predicted_rolls() -> None:
    needed = rolls_needed(6)
    rng = np.random.default_rng(SEED)
    heavy = loaded_die(6, 0.20)
    assert heavy[-1] == pytest.approx(0.2) and sum(heavy) == pytest.approx(1.0)
    results = [assess(_faces(c), "the red dice") for c in rng.multinomial(needed, heavy,
                                                                           size=400)]
    found = [r for r in results if r.status == "biased" and r.face == "6"]
    assert len(found) / len(results) >= 0.85  # predicted POWER = 0.90; this seed: 0.895
    assert all(r.verdict.startswith("the red dice show 6 too often") for r in found)
    # The prediction is not merely generous: with half the rolls the test often misses.
    half = [assess(_faces(c)) for c in rng.multinomial(needed // 2, heavy, size=400)]
    assert sum(r.status == "biased" for r in half) / len(half) <= 0.70
    # Before enough rolls, a fair-looking verdict says how many more a firm answer needs.
    early = assess(_faces(np.array([100] * 6)), "the red dice")
    assert early.status == "fair" and early.more_needed == needed - 600
    assert f"about {needed - 600:,} more rolls for a firm answer" in early.verdict
    late = assess(_faces(np.array([needed // 6 + 1] * 6)), "the red dice")
    assert late.more_needed == 0 and "would very likely have shown" in late.verdict


def test_the_worked_out_number_of_rolls_matches_the_simulation() -> None:
    worked = work_out_rolls_needed(6, 0.20, ALPHA, POWER)
    assert abs(worked - rolls_needed(6)) <= 0.01 * worked
    # The noncentral chi-square alone says fewer; the simulation corrects it upwards.
    assert 1_800 < worked < 2_600
    assert work_out_rolls_needed(6, 0.40) < worked < work_out_rolls_needed(6, 0.10)


def test_intervals_are_scipys_exact_intervals() -> None:
    counts = [110, 90, 0, 600]
    for (low, high), k in zip(intervals(counts), counts, strict=True):
        ci = stats.binomtest(k, sum(counts)).proportion_ci(method="exact")
        assert low == pytest.approx(ci.low, abs=1e-9)
        assert high == pytest.approx(ci.high, abs=1e-9)
    assert intervals([0, 0]) == [(0.0, 1.0), (0.0, 1.0)]


def test_chi_square_is_scipys_chisquare() -> None:
    rng = np.random.default_rng(SEED)
    for counts in rng.multinomial(300, [0.15, 0.15, 0.15, 0.15, 0.15, 0.25], size=50):
        expected = stats.chisquare(counts)
        statistic, p = chi_square(list(counts))
        assert statistic == pytest.approx(expected.statistic, rel=1e-12)
        assert p == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-300)


def test_a_verdict_needs_only_scipy_special() -> None:
    script = ("import sys\nfrom companion.history.fairness import assess\n"
              "r = assess({'1': 50, '2': 40, '3': 60, '4': 50, '5': 50, '6': 95})\n"
              "print(r.status, 'scipy.stats' in sys.modules, 'scipy.special' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["biased", "False", "True"]


def test_verdicts_say_no_more_than_the_numbers() -> None:
    none = assess({}, "the blue dice")
    assert none.status == "none" and "no confident rolls yet" in none.verdict
    few = assess({"1": 3, "6": 9}, "the blue dice")
    assert few.status == "too-few" and "too few rolls to judge (12)" in few.verdict
    assert few.p_value is None
    strong = assess({"1": 100, "2": 100, "3": 100, "4": 100, "5": 100, "6": 200})
    assert strong.status == "biased" and "p < 0.001 after 700 rolls" in strong.verdict
    assert "confirm" not in strong.verdict
    weak = assess({"1": 10, "2": 9, "3": 9, "4": 10, "5": 9, "6": 25})  # p = 0.004
    assert weak.status == "biased" and weak.p_value is not None and weak.p_value > 0.001
    assert "more rolls would confirm it" in weak.verdict
    rare = assess({"1": 40, "2": 120, "3": 120, "4": 120, "5": 120, "6": 120})
    assert rare.face == "1" and "show 1 too rarely" in rare.verdict
    icons = assess({"attack": 12, "heal": 4}, "Eye dice (black)")
    assert icons.status == "untested" and "cannot test them" in icons.verdict
    shares = {f.face: f for f in strong.faces}
    assert shares["6"].share == pytest.approx(200 / 700)
    assert shares["6"].low < 200 / 700 < shares["6"].high
    assert shares["1"].expected == pytest.approx(1 / 6)
    corrected = assess({"1": 100, "2": 100, "3": 100, "4": 100, "5": 100, "6": 100},
                       corrected=7, unsure=3)
    assert "7 corrected by the players" in corrected.verdict
    assert corrected.to_json()["unsure"] == 3


def test_loaded_die_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="no such die"):
        loaded_die(1, 0.2)
    with pytest.raises(ValueError, match="no such die"):
        loaded_die(6, 0.0)
