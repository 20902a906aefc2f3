# Stages that all run, whichever fails (sourced by test.sh): `stage NAME COMMAND...` runs one
# and remembers it when it fails; `stages_report` lists every failure at the end and returns
# non-zero when there is any. A red stage never hides the stages after it.
failed_stages=()

stage() {
    local name="$1"; shift
    echo "== $name"
    "$@"
    local rc=$?
    if [ "$rc" -ne 0 ]; then
        failed_stages+=("$name (exit $rc)")
    fi
    return 0
}

stages_report() {
    echo
    if [ "${#failed_stages[@]}" -ne 0 ]; then
        echo "test.sh: ${#failed_stages[@]} stage(s) failed:"
        printf '  - %s\n' "${failed_stages[@]}"
        return 1
    fi
    echo "test.sh: every stage passed"
    return 0
}
