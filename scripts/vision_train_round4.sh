#!/usr/bin/env bash
# Round 4 of the dice CNNs (issue 30): every shared photo set (visdice-train added), board-game
# pieces and tray details rendered as not-dice, detector samples zoomed for small dice.
#
#   scripts/vision_train_round4.sh STAGE...     (STAGE: loso-visdice f0 f1 f2 shipped
#                                                 loso-byler loso-matteop65)
#
# Each stage writes its models into its own folder and is skipped once its dice_cls.onnx is
# there; a stage stopped half-way goes on from its checkpoint (dice_det.ckpt / dice_cls.ckpt,
# written every few hundred steps; commit them to go on in another session). Needs the
# training venv of scripts/vision_train_cnn.py (PyTorch, not a project dependency):
#   TRAIN_PY=/tmp/trainenv/bin/python scripts/vision_train_round4.sh loso-visdice f0
# One thread per stage; run two shells side by side on two cores. Times on this 2-core VM:
# a fine-tuned stage (det 1500 + cls 3000 steps) about 25 min; a stage from scratch
# (loso-byler, loso-matteop65: det 4000 + cls 10000 steps) about 70 min.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${TRAIN_PY:-/tmp/trainenv/bin/python}"
train=(nice -n 10 "$py" scripts/vision_train_cnn.py)
common=(--board 0.3 --resume)
folds=benchmarks/models/folds
loso=benchmarks/models/loso

stage() {  # stage OUT HOLDOUT INIT_DIR|- [extra args...]
    local out=$1 holdout=$2 init=$3
    shift 3
    if [ -e "$out/dice_cls.onnx" ] && [ ! -e "$out/dice_cls.ckpt" ] && [ ! -e "$out/dice_det.ckpt" ]; then
        echo "== $out: done already"; return
    fi
    mkdir -p "$out"
    local det_init=() cls_init=() det_steps=(--det-steps 4000) cls_steps=(--cls-steps 10000)
    if [ "$init" != "-" ]; then
        det_init=(--init-det "$init/dice_det.onnx"); cls_init=(--init-cls "$init/dice_cls.onnx")
        det_steps=(--det-steps 1500); cls_steps=(--cls-steps 3000)
    fi
    if [ ! -e "$out/dice_det.onnx" ] || [ -e "$out/dice_det.ckpt" ]; then
        echo "== $out: detector"
        "${train[@]}" det --holdout "$holdout" --out "$out" "${common[@]}" "${det_steps[@]}" \
            --icons 0.3 --hard 0.5 "${det_init[@]}" "$@"
    fi
    echo "== $out: classifier"
    "${train[@]}" cls --holdout "$holdout" --out "$out" "${common[@]}" "${cls_steps[@]}" \
        --hard 0.3 --mine-det "$out/dice_det.onnx" "${cls_init[@]}" "$@"
}

for s in "$@"; do
    case "$s" in
        # the shipped models never saw visdice: fine-tuned from them, still never shown it
        loso-visdice) stage "$loso/visdice" none vision/models --leave-out visdice-train ;;
        f0|f1|f2) k=${s#f}; stage "$folds/round4/f$k" "$k" "$folds/f$k" ;;
        shipped) stage benchmarks/models/round4-shipped none vision/models ;;
        loso-byler) stage "$loso/byler" none - --leave-out byler-train ;;
        loso-matteop65) stage "$loso/matteop65" none - --leave-out matteop65-train ;;
        *) echo "unknown stage $s" >&2; exit 2 ;;
    esac
done
