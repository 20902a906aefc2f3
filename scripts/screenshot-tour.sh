#!/usr/bin/env bash
# A tour of screenshots of every game's screens and the app's own, at 800x480, with as many
# players as each game takes (six where a game allows: Dice Forge takes four, Occulites five),
# the largest text size among them, written into one folder to look at:
#   scripts/screenshot-tour.sh DIR
# Each picture test runs in a process of its own (one whole app each) and checks its screens
# as it takes them (cut text, overlaps, touch targets); the huge-text pictures are named
# *-huge-* (eye-6-huge-*, occulites-huge-*, diceocalypse-huge-*, dice-forge-huge-*,
# tribal-village-huge-*, tour-*-huge-*, start-*-huge*, history-*-huge*, tournament-*).
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:?usage: scripts/screenshot-tour.sh DIR}")"
mkdir -p "$out"
export EYE_SHOTS="$out" EYE_GROW_SHOTS="$out" OCCULITES_SCREENSHOTS="$out" \
    DICEOCALYPSE_SHOTS="$out" DICE_FORGE_SHOTS="$out" TRIBAL_SCREENSHOTS="$out" \
    TOUR_SHOTS="$out" GROW_SHOTS="$out" REFUSAL_SHOTS="$out" HISTORY_SHOTS="$out" \
    END_SHOTS="$out" TOURNAMENT_SHOTS="$out"
status=0
for f in test_app_eye_screens test_app_eye_text_grows test_app_occulites_screens \
         test_app_diceocalypse_screens test_app_dice_forge_shots test_app_tribal_village_shots \
         test_app_text_grows test_app_start_refusals test_app_layout_history test_app_end_game \
         test_app_tournament_words; do
    echo "== $f"
    .venv/bin/python -m pytest -q -p no:cacheprovider "tests/app/$f.py" | tail -1 || status=1
done
echo "pictures in $out: $(ls "$out" | wc -l)"
exit "$status"
