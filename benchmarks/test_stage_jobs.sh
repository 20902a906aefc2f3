#!/bin/bash
# The fast stage of ./test.sh with other process counts: the main suite on $1 workers, then the
# fast whole-app files $2 at a time. Pair two settings with farm-bench:
#   farm-bench -n 3 --warmup 0 --timeout 2400 --vs "benchmarks/test_stage_jobs.sh 2 2" -- benchmarks/test_stage_jobs.sh 3 4
cd "$(dirname "$0")/.."
export SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 GPIOZERO_PIN_FACTORY=mock
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest -q -m "not app and not long" -n "$1" --dist worksteal -p no:cacheprovider >/dev/null 2>&1 || echo FAIL main
.venv/bin/python -m pytest -q --collect-only -p no:cacheprovider -m "app and not long" tests/app 2>/dev/null | sed -n 's/::.*//p' | sort -u |
  xargs -P "$2" -I{} sh -c '.venv/bin/python -m pytest -q -m "app and not long" -p no:cacheprovider {} > /dev/null 2>&1 || echo "FAIL {}"'
