#!/usr/bin/env bash
# The README's first command as a new user meets it: a clean clone of HEAD where ./test.sh never
# ran, so ./start.sh installs the product without its dev packages (pytest, hypothesis, ...) and
# any product import of one fails here. Drives `./start.sh` (no display: it must point to the
# demo), `./start.sh demo` and `./start.sh doctor`. CI runs it before ./test.sh (.ci/run); uv's
# download cache is shared, so it costs the install (~10 s) and the demo (~15-20 s).
# Only committed work is checked (it clones HEAD).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$here" "$work/companion"
cd "$work/companion"
run() { env -u VIRTUAL_ENV -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$@"; }
failed=0
fail() { echo "first-run check: FAILED: $*" >&2; failed=1; }

echo "-- ./start.sh (no display here)"
set +e
run ./start.sh >"$work/start.txt" 2>&1
rc=$?
set -e
cat "$work/start.txt"
[ "$rc" -eq 2 ] && grep -q "companion demo" "$work/start.txt" ||
    fail "./start.sh without a display should exit 2 pointing to \`companion demo\` (exit $rc)"
if .venv/bin/python -c "import pytest" 2>/dev/null; then
    fail "pytest is installed by ./start.sh alone: this check would prove nothing"; exit 1
fi

echo "-- ./start.sh demo --output DIR"
if run ./start.sh demo --output "$work/demo"; then
    shots=$(find "$work/demo" -name '*.png' | wc -l)
    [ "$shots" -gt 0 ] && [ -s "$work/demo/standings.txt" ] ||
        fail "the demo wrote $shots screenshots and no standings"
    echo "demo: $shots screenshots"
else
    fail "./start.sh demo exited $?"
fi

echo "-- ./start.sh doctor"
set +e
run ./start.sh doctor >"$work/doctor.txt" 2>&1
rc=$?
set -e
cat "$work/doctor.txt"
# 0: all well, 1: something to fix (no camera or sound card in CI); anything else is a crash
[ "$rc" -le 1 ] && ! grep -q "Traceback" "$work/doctor.txt" ||
    fail "./start.sh doctor crashed (exit $rc)"
[ "$failed" -eq 0 ] && echo "first-run check: passed"
exit "$failed"
