#!/usr/bin/env bash
# Start the companion, installing what it needs first. Arguments go to `companion`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/scripts/bootstrap.sh" --no-dev --inexact
if is_pi && has_pkg python3-lgpio; then
    # gpiozero on a Pi 5 needs lgpio (from apt); it works on a Pi 4 as well.
    export GPIOZERO_PIN_FACTORY="${GPIOZERO_PIN_FACTORY:-lgpio}"
fi
# Python keeps the compiled form of the app's modules (some environments, this machine's
# included, set PYTHONDONTWRITEBYTECODE; then every start compiles them all again from source,
# about a second of a 2-core machine's processor time: benchmarks/screens.py).
unset PYTHONDONTWRITEBYTECODE
exec "$here/.venv/bin/companion" "$@"
