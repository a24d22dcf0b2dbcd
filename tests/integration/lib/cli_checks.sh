# cli_checks.sh — the checks the CLI integration tests share. Source it after setting
# `syncscope` (the binary) and `work` (a scratch directory); it starts the `failures` count.
#   expect CODE DESCRIPTION COMMAND...   the command exits with CODE (its output in $work/out, err)
#   expect_output TEXT                   the last command's stdout contains TEXT
#   expect_error_line TEXT               the last command's stderr is exactly one line containing TEXT
#   sql DATABASE STATEMENT               the statement's rows as CSV, header first
#   scalar STATEMENT                     the single value the statement returns on $db
#   check DESCRIPTION STATEMENT EXPECTED that value is EXPECTED, else count a failure
#   fail MESSAGE                         count a failure
#   sampled_against_full NAME SAMPLING RUN_ARGS... [-- CHECK_ARGS...]
#                                        `run RUN_ARGS` in detail and sampled with the options in
#                                        SAMPLING (one string), then lib/sampled_interval.py on the
#                                        two with CHECK_ARGS; counts a failure for each that fails
#   expect_same_report DB RUNS DIR STUDY ARGS...  `reproduce STUDY ARGS... --report-only` (ARGS
#                                        write into DIR) stores nothing beyond the DB's RUNS runs
#                                        and rewrites DIR/claims.md unchanged; a --workloads
#                                        outside the study is one error line
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

sampled_against_full() {
    local name=$1 sampling=$2
    shift 2
    local run_args=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        run_args+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    "$syncscope" run "${run_args[@]}" --mode detailed --no-db --json >"$work/full.json" || fail "detailed $name run"
    # shellcheck disable=SC2086 # SAMPLING is a list of options
    "$syncscope" run "${run_args[@]}" --mode sampled $sampling --no-db --json >"$work/sampled.json" ||
        fail "sampled $name run"
    python3 "$(dirname "${BASH_SOURCE[0]}")/sampled_interval.py" "$name sampled" "$work/full.json" \
        "$work/sampled.json" "$@" || failures=$((failures + 1))
}

expect() {
    local code=$1 what=$2
    shift 2
    "$@" >"$work/out" 2>"$work/err"
    local got=$?
    [ "$got" -eq "$code" ] || { fail "$what: exit $got, expected $code"; cat "$work/out" "$work/err"; }
}

expect_output() {
    grep -qF -- "$1" "$work/out" || { fail "output lacks '$1':"; cat "$work/out"; }
}

expect_error_line() {
    if [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qF -- "$1" "$work/err"; then
        fail "expected one error line containing '$1', got:"
        cat "$work/err"
    fi
}

sql() {
    printf '%s\n' "$2" >"$work/statement.sql"
    "$syncscope" query "$work/statement.sql" --csv --db "$1" 2>&1
}

scalar() {
    sql "$db" "$1" | tail -n 1
}

check() {
    local got
    got=$(scalar "$2")
    [ "$got" = "$3" ] || fail "$1: got '$got', expected '$3'"
}

expect_same_report() {
    local db=$1 runs=$2 directory=$3 study=$4
    shift 4
    cp "$directory/claims.md" "$work/claims.first"
    expect 0 "report only" "$syncscope" reproduce "$study" "$@" --report-only
    [ "$(sql "$db" "SELECT count(*) FROM runs" | tail -1)" = "$runs" ] || fail "--report-only stored runs"
    cmp -s "$work/claims.first" "$directory/claims.md" || fail "--report-only changed the claims"
    expect 2 "workload outside the study" "$syncscope" reproduce "$study" --workloads vecadd --db "$db"
    expect_error_line "'vecadd' is not a workload of this study"
}
