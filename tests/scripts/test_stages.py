"""./test.sh runs every stage even when one fails, and reports all failures at the end
(issue 33: it stopped at the first failing stage, so the whole-app files never ran)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]


def _run(body: str) -> subprocess.CompletedProcess[str]:
    script = f'set -uo pipefail\nsource "{ROOT}/scripts/stages.sh"\n{body}\nstages_report\n'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)


def test_every_stage_runs_and_every_failure_is_listed() -> None:
    done = _run('stage one false\nstage two echo ran-two\nstage three sh -c "exit 3"\n'
                'stage four echo ran-four')
    assert done.returncode == 1
    out = done.stdout
    assert "ran-two" in out and "ran-four" in out  # the stages after a failure still ran
    report = out[out.index("stage(s) failed"):]
    assert "2 stage(s) failed" in out
    assert "- one (exit 1)" in report and "- three (exit 3)" in report
    assert "two" not in report and "four" not in report


def test_all_green_exits_zero() -> None:
    done = _run("stage one true\nstage two true")
    assert done.returncode == 0 and "every stage passed" in done.stdout


def test_test_sh_runs_its_stages_through_the_runner() -> None:
    text = (ROOT / "test.sh").read_text(encoding="utf-8")
    assert "scripts/stages.sh" in text and text.rstrip().endswith("stages_report")
    assert "set -e" not in text.split("source")[-1]  # nothing after may stop at a failure
    for stage in ('stage "ruff"', 'pool_add "mypy', 'stage "pytest"', 'pool_add "pytest $f',
                  'pool_add "long: pytest $f', 'pool_run "$jobs"'):
        assert stage in text


def test_a_pool_runs_its_stages_side_by_side_and_lists_every_failure(tmp_path: Path) -> None:
    """Two at once: each of the first two stages waits (up to 30 s) for the other to have
    started, which only two stages running together can do; each stage's output comes whole,
    under its name; the failures are listed at the end as for `stage`."""
    meet = 'touch {d}/{me}; for i in $(seq 300); do [ -e {d}/{other} ] && break; sleep 0.1; ' \
           'done; [ -e {d}/{other} ] && echo {me}-met-{other}'
    a = meet.format(d=tmp_path, me="a", other="b")
    b = meet.format(d=tmp_path, me="b", other="a")
    done = _run(f"pool_add one bash -c '{a}; echo one-done'\n"
                f"pool_add two bash -c '{b}; exit 4'\n"
                "pool_add three echo ran-three\n"
                "pool_run 2\n"
                "stage four echo ran-four")
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "a-met-b\none-done\n" in out and "b-met-a\n" in out
    for name in ("one", "two", "three", "four"):
        assert f"== {name}\n" in out and f"-- {name}: " in out
    assert "ran-three" in out and "ran-four" in out
    report = out[out.index("stage(s) failed"):]
    assert "1 stage(s) failed" in out and "- two (exit 4)" in report
