#!/usr/bin/env bash
# Start the companion, installing what it needs first. Arguments go to `companion`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/scripts/bootstrap.sh" --no-dev
exec "$here/.venv/bin/companion" "$@"
