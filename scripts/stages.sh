# Stages that all run, whichever fails (sourced by test.sh): `stage NAME COMMAND...` runs one
# and remembers it when it fails; `pool_add NAME COMMAND...` then `pool_run JOBS` run a list of
# stages JOBS at a time, each stage's output shown whole when it ends; `stages_report` lists
# every failure at the end and returns non-zero when there is any. A red stage never hides the
# stages after it. Each stage says how long it took.
failed_stages=()
pool_names=()
pool_cmds=()

stage() {
    local name="$1"; shift
    local t0=$SECONDS
    echo "== $name"
    "$@"
    local rc=$?
    echo "-- $name: $((SECONDS - t0)) s"
    if [ "$rc" -ne 0 ]; then
        failed_stages+=("$name (exit $rc)")
    fi
    return 0
}

pool_add() {
    local name="$1"; shift
    pool_names+=("$name")
    pool_cmds+=("$(printf '%q ' "$@")")
}

pool_run() {
    # Runs the stages pool_add listed, at most $1 at once, in the order given; empties the list.
    # Each stage writes its exit status to a file when it ends; the loop looks every 0.2 s.
    local jobs="$1" logs next=0 i rc
    local -A running=() started=()   # stage index -> its start (SECONDS)
    logs="$(mktemp -d)"
    while [ "$next" -lt "${#pool_names[@]}" ] || [ "${#running[@]}" -gt 0 ]; do
        while [ "$next" -lt "${#pool_names[@]}" ] && [ "${#running[@]}" -lt "$jobs" ]; do
            (
                eval "${pool_cmds[$next]}"
                echo "$?" >"$logs/$next.rc.part" && mv "$logs/$next.rc.part" "$logs/$next.rc"
            ) >"$logs/$next.log" 2>&1 </dev/null &
            running[$next]=1
            started[$next]=$SECONDS
            next=$((next + 1))
        done
        for i in "${!running[@]}"; do
            [ -e "$logs/$i.rc" ] || continue
            rc="$(cat "$logs/$i.rc")"
            echo "== ${pool_names[$i]}"
            cat "$logs/$i.log"
            echo "-- ${pool_names[$i]}: $((SECONDS - started[$i])) s"
            if [ "$rc" -ne 0 ]; then
                failed_stages+=("${pool_names[$i]} (exit $rc)")
            fi
            unset "running[$i]" "started[$i]"
        done
        [ "${#running[@]}" -lt "$jobs" ] && [ "$next" -lt "${#pool_names[@]}" ] || sleep 0.2
    done
    wait
    rm -rf "$logs"
    pool_names=()
    pool_cmds=()
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
