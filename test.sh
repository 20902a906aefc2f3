#!/usr/bin/env bash
# Run the whole test suite (lint, types, tests), installing what it needs first.
#   ./test.sh [--fast] [PYTEST ARGS...]
# --fast leaves out the long stage (tests marked `long`: the full layout walks and the
# screenshot tours; CI runs it). PYTEST ARGS go to the main suite's pytest. TEST_JOBS (default:
# the processor cores) is how many processor-bound test processes run at once; the main suite
# takes one worker more and the whole-app files twice as many, since their processes spend
# much of their time waiting (on subprocesses and brokers, on the app's 60 fps frame cap).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fast=0
if [ "${1:-}" = "--fast" ]; then
    fast=1
    shift
fi
args=("$@")
set --   # bootstrap.sh hands its own arguments to `uv sync`; these are pytest's
source "$here/scripts/bootstrap.sh"
set -- "${args[@]}"
cd "$here"
if ! command -v systemd-analyze >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    # tests/companion/appliance/test_appliance.py checks generated units with systemd's own tools
    # (offline, in a temporary root directory).
    echo "test.sh: installing systemd's tools for the appliance tests" >&2
    s=""; [ "$(id -u)" -ne 0 ] && s="sudo"
    $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq \
        --no-install-recommends systemd >/dev/null
fi
py=.venv/bin/python
jobs="${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# Each test process imports the same few hundred modules: let Python keep their compiled form
# (some environments, this machine's included, set PYTHONDONTWRITEBYTECODE, and then every
# process compiles them all again from source, about 2 s of processor time each).
unset PYTHONDONTWRITEBYTECODE
# Every stage runs, whichever fails (scripts/stages.sh): the failures are listed at the end,
# and the exit status is non-zero when there is any.
set +e
source "$here/scripts/stages.sh"

# The whole-app files (tests/app, marker `app`) whose tests a marker expression selects, as
# pytest collects them (collecting imports no Kivy): `app_files "app and not long"`.
app_files() {
    local out rc
    out="$($py -m pytest -q --collect-only -p no:cacheprovider -m "$1" tests/app 2>&1)"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then  # 5: none selected
        echo "$out" >&2
        return "$rc"
    fi
    sed -n 's/::.*//p' <<<"$out" | sort -u
}

t_fast=$SECONDS
stage "ruff" $py -m ruff check .
# The main suite on $jobs + 1 workers (pytest-xdist; worksteal evens out its long tests), then
# mypy beside the whole-app files: Kivy's window and its global state last as long as their
# process, so each whole-app file runs in a process of its own, 2 x $jobs at once.
stage "pytest" $py -m pytest -q -m "not app and not long" -n "$((jobs + 1))" --dist worksteal "$@"
pool_add "mypy --strict companion/ rules/ vision/ calibration/ hardware/" \
    $py -m mypy --strict companion rules vision calibration hardware
if [ -d tests/app ]; then
    if fast_files="$(app_files "app and not long")"; then
        for f in $fast_files; do
            pool_add "pytest $f (own process)" \
                $py -m pytest -q -m "app and not long" -p no:cacheprovider "$f"
        done
    else
        failed_stages+=("collecting tests/app")
    fi
fi
pool_run "$((2 * jobs))"
echo "-- fast stage (all but the long stage): $((SECONDS - t_fast)) s"
if [ "$fast" -eq 1 ]; then
    echo "== long stage: left out (--fast)"
elif [ -d tests/app ]; then
    # The long stage (marker `long`): the rules' random-play laws, then the whole-app files,
    # the full layout walks (the longest) first, then the screenshot tours.
    pool_add "long: pytest -m 'long and not app'" \
        $py -m pytest -q -m "long and not app" -p no:cacheprovider "$@"
    if long_files="$(app_files "app and long")"; then
        long_files="$(grep /test_app_layout_ <<<"$long_files"; grep -v /test_app_layout_ <<<"$long_files")"
        for f in $long_files; do
            pool_add "long: pytest $f (own process)" \
                $py -m pytest -q -m "app and long" -p no:cacheprovider "$f"
        done
        t_long=$SECONDS
        pool_run "$jobs"
        echo "-- long stage: $((SECONDS - t_long)) s"
    else
        failed_stages+=("collecting tests/app (long)")
    fi
fi
stages_report
