# cli_checks.sh — the checks the CLI integration tests share. Source it after setting
# `syncscope` (the binary) and `work` (a scratch directory); it starts the `failures` count.
#   expect CODE DESCRIPTION COMMAND...   the command exits with CODE (its output in $work/out, err)
#   expect_output TEXT                   the last command's stdout contains TEXT
#   expect_error_line TEXT               the last command's stderr is exactly one line containing TEXT
#   sql DATABASE STATEMENT               the statement's rows as CSV, header first
#   fail MESSAGE                         count a failure
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
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
