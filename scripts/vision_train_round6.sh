#!/usr/bin/env bash
# Round 6 of the dice CNNs (issue 30): the classifiers fine-tuned for 1000 steps on CPU with
# twice the share of synthetic hard tables (--hard 0.6: felt, mats, oblique views whose side
# faces the detector finds are mined as "not a die"); the detectors are round 5's.
#
#   scripts/vision_train_round6.sh STAGE...     (STAGE: shipped f0 f1 f2
#                                                 loso-byler loso-matteop65 loso-visdice)
#
# Each stage starts from the classifier it replaces (round 5's, as committed before round 6:
# git show facceae:PATH) and writes into OUT (default: a new folder under /tmp; set
# ROUND6_OUT=. to write over the repository's models). Needs the training venv of
# scripts/vision_train_cnn.py (PyTorch, not a project dependency):
#   TRAIN_PY=/tmp/trainenv/bin/python scripts/vision_train_round6.sh shipped f0
# One thread per stage; two shells side by side on two cores. About 5 minutes a stage on this
# 2-core VM (data and mined crops 1 min, 1000 steps 3.5-4.5 min).
set -euo pipefail
cd "$(dirname "$0")/.."
py="${TRAIN_PY:-/tmp/trainenv/bin/python}"
out="${ROUND6_OUT:-$(mktemp -d /tmp/round6.XXXX)}"
base=facceae  # the commit whose classifiers round 6 started from

stage() {  # stage NAME DEST HOLDOUT FROM_DIR [extra args...]
    local name=$1 dest=$2 holdout=$3 from=$4
    shift 4
    local init
    init=$(mktemp -d /tmp/round6-init.XXXX)
    git show "$base:$from/dice_cls.onnx" >"$init/dice_cls.onnx"
    mkdir -p "$out/$dest"
    echo "== $name -> $out/$dest $(date +%T)"
    nice -n 10 "$py" scripts/vision_train_cnn.py cls --holdout "$holdout" --out "$out/$dest" \
        --board 0.3 --hard 0.6 --cls-steps 1000 --mine-det "$from/dice_det.onnx" \
        --init-cls "$init/dice_cls.onnx" "$@"
    rm -r "$init"
    if [ ! -e "$out/$dest/dice_det.onnx" ]; then cp "$from/dice_det.onnx" "$out/$dest/"; fi
}

r5=benchmarks/models/folds/round5
loso=benchmarks/models/loso
for s in "$@"; do
    case "$s" in
        shipped) stage shipped vision/models none vision/models --weight visdice-train=3 ;;
        f0|f1|f2) stage "$s" "benchmarks/models/folds/round6/$s" "${s#f}" "$r5/$s" \
            --weight visdice-train=3 ;;
        loso-byler) stage "$s" "$loso/byler" none "$loso/byler" --leave-out byler-train ;;
        loso-matteop65) stage "$s" "$loso/matteop65" none "$loso/matteop65" \
            --leave-out matteop65-train ;;
        loso-visdice) stage "$s" "$loso/visdice" none "$loso/visdice" --leave-out visdice-train ;;
        *) echo "unknown stage $s (shipped f0 f1 f2 loso-byler loso-matteop65 loso-visdice)" >&2
           exit 2 ;;
    esac
done
echo "models in $out"
