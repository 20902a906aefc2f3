#!/usr/bin/env bash
# Rounds 4 and 5 of the dice CNNs on a machine with a GPU, every stage at once (issue 30).
#
#   TRAIN_DATA=<photo sets> OUT=<folder> scripts/vision_train_device.sh [SECONDS]
#
# The nets are tiny: the GPU runs them, the data (photo warps, synthetic scenes, crops) is made
# on one CPU core per stage, so eight stages run side by side on a 16-core machine. Each stage is
# stopped after SECONDS (default 470) and leaves its checkpoints (--resume goes on from them);
# everything written is packed into OUT/models.tgz, the logs into OUT/logs.tgz.
#
# Stages (see scripts/vision_train_round4.sh for the round-4 recipe):
#   r4-f1, r4-f2      round 4's folds 1 and 2 (fine-tuned from the round-3 folds), finishing
#                     the 3-fold figures of round 4;
#   r5-f0..f2         round 5: round 4 plus the oblique photos (visdice-train) used three times
#                     as often, and longer fine-tuning (det 1800, cls 4500 steps);
#   r5-shipped        round 5 on every photo, fine-tuned from the shipped models;
#   loso-byler, loso-matteop65
#                     never shown that source, from scratch, shortened to det 2000 / cls 5000
#                     steps (round 4's recipe has 4000 / 10000) to fit one 10-minute run.
# The machine's python3 must hold PyTorch, onnx, opencv and msgspec (vision's profiles need it:
# where it is missing, carry its wheel, see the device tool's notes on wheels).
# TRAIN_DATA holds byler-train, matteop65-train and visdice-train (the machine has no ../shared;
# the photos travelled re-encoded at JPEG quality 85 to fit the 64 MiB the device tool carries).
set -uo pipefail
cd "$(dirname "$0")/.."
limit="${1:-470}"
py="${TRAIN_PY:-python3}"
out="${OUT:?OUT: where models.tgz and logs.tgz go}"
logs="$out/logs"
mkdir -p "$logs"
folds=benchmarks/models/folds
loso=benchmarks/models/loso
common=(--board 0.3 --resume --device "${TRAIN_DEVICE:-cuda}")

stage() {  # stage NAME OUT HOLDOUT INIT_DIR|- DET_STEPS CLS_STEPS [extra args...]
    local name=$1 dir=$2 holdout=$3 init=$4
    local det=$(($5 / ${TRAIN_DIV:-1})) cls=$(($6 / ${TRAIN_DIV:-1}))
    shift 6
    # TRAIN_DIV / TRAIN_EXTRA: a quick trial of this script (fewer steps, fewer scenes)
    # shellcheck disable=SC2206
    local extra=(${TRAIN_EXTRA:-})
    mkdir -p "$dir"
    local det_init=() cls_init=()
    if [ "$init" != "-" ]; then
        det_init=(--init-det "$init/dice_det.onnx"); cls_init=(--init-cls "$init/dice_cls.onnx")
    fi
    {
        echo "== $name: detector $(date +%T)"
        "$py" scripts/vision_train_cnn.py det --holdout "$holdout" --out "$dir" "${common[@]}" \
            --det-steps "$det" --icons 0.3 --hard 0.5 "${det_init[@]}" "$@" "${extra[@]}" &&
        echo "== $name: classifier $(date +%T)" &&
        "$py" scripts/vision_train_cnn.py cls --holdout "$holdout" --out "$dir" "${common[@]}" \
            --cls-steps "$cls" --hard 0.3 --mine-det "$dir/dice_det.onnx" "${cls_init[@]}" "$@" "${extra[@]}"
        echo "== $name: exit $? $(date +%T)"
    } >"$logs/$name.log" 2>&1
}

nvidia-smi -L || true
"$py" -c "import torch, cv2, numpy; print('torch', torch.__version__, 'cuda',
torch.cuda.is_available(), 'cv2', cv2.__version__, 'numpy', numpy.__version__)"
r5=(--weight visdice-train=3)
export -f stage
export py logs
pids=()
run() { timeout "$limit" bash -c "$(declare -p common); stage $(printf '%q ' "$@")" & pids+=($!); }
run r4-f1 "$folds/round4/f1" 1 "$folds/f1" 1500 3000
run r4-f2 "$folds/round4/f2" 2 "$folds/f2" 1500 3000
run r5-f0 "$folds/round5/f0" 0 "$folds/f0" 1800 4500 "${r5[@]}"
run r5-f1 "$folds/round5/f1" 1 "$folds/f1" 1800 4500 "${r5[@]}"
run r5-f2 "$folds/round5/f2" 2 "$folds/f2" 1800 4500 "${r5[@]}"
run r5-shipped benchmarks/models/round5-shipped none vision/models 1800 4500 "${r5[@]}"
run loso-byler "$loso/byler" none - 2000 5000 --leave-out byler-train
run loso-matteop65 "$loso/matteop65" none - 2000 5000 --leave-out matteop65-train
for p in "${pids[@]}"; do wait "$p"; done
tail -n 4 "$logs"/*.log
tar czf "$out/models.tgz" benchmarks/models/folds/round4 benchmarks/models/folds/round5 \
    benchmarks/models/round5-shipped "$loso/byler" "$loso/matteop65"
tar czf "$out/logs.tgz" -C "$out" logs
ls -l "$out"
