#!/usr/bin/env bash
# Run the whole test suite (lint, types, tests), installing what it needs first.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
args=("$@")
set --   # bootstrap.sh hands its own arguments to `uv sync`; these are pytest's
source "$here/scripts/bootstrap.sh"
set -- "${args[@]}"
cd "$here"
if ! command -v systemd-analyze >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    # tests/companion/test_appliance.py checks generated units with systemd's own tools
    # (offline, in a temporary root directory).
    echo "test.sh: installing systemd's tools for the appliance tests" >&2
    s=""; [ "$(id -u)" -ne 0 ] && s="sudo"
    $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq \
        --no-install-recommends systemd >/dev/null
fi
py=.venv/bin/python
# Every stage runs, whichever fails (scripts/stages.sh): the failures are listed at the end,
# and the exit status is non-zero when there is any.
set +e
source "$here/scripts/stages.sh"
stage "ruff" $py -m ruff check .
stage "mypy --strict companion/ rules/ vision/" $py -m mypy --strict companion rules vision
# Whole-app tests start a Kivy App, which closes Kivy's event loop for the rest of its process,
# so they run one file per process after the main suite.
stage "pytest" $py -m pytest -q -m "not app" "$@"
if [ -d tests/app ]; then
    for f in tests/app/test_*.py; do
        [ -e "$f" ] || continue
        stage "pytest $f (own process)" $py -m pytest -q -m app -p no:cacheprovider "$f"
    done
fi
stages_report
