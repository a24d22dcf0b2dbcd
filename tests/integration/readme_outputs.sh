#!/usr/bin/env bash
# readme_outputs.sh — the README cannot drift (issue 26 item 7): every command output README.md
# shows is what the command prints now. scripts/readme_outputs.py --check re-runs the cheap
# command blocks in document order and compares them (machine-dependent numbers, written ~N,
# masked), and checks that each expensive session's digest (the behaviour golden and the sources
# that print it, with the session's own text) still matches what its outputs were produced from.
# Then it checks that the check can fail: a README copy with one cheap output altered, one with an
# expensive session's shown output altered, and one with a malformed directive are each refused;
# and that a session marked stale is accepted only with its visible note and unedited text.
# Not part of the sanitizer build (the same commands run there in their own tests).
#
# usage: readme_outputs.sh PATH/TO/syncscope
set -u
syncscope=${1:?usage: readme_outputs.sh PATH/TO/syncscope}
source_dir=${SYNCSCOPE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
script="$source_dir/scripts/readme_outputs.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# altered_readme OUT PATTERN REPLACEMENT WHAT: README.md with the first match of the Python regular
# expression PATTERN replaced (re.sub syntax), written to OUT; fails the test with WHAT if none.
# refused WHAT README RC PATTERN [OPTION...]: --check of README (with OPTIONs) exits RC and its
# output has a line matching the extended regular expression PATTERN.
refused() {
    python3 "$script" --check --syncscope "$syncscope" --readme "$2" "${@:5}" >"$work/out" 2>&1
    local rc=$?
    [ "$rc" -eq "$3" ] || fail "$1: exit $rc, not $3"
    grep -Eq "$4" "$work/out" || fail "$1: $(head -5 "$work/out")"
}
altered_readme() {
    python3 - "$source_dir/README.md" "$@" <<'EOF' || fail "$4"
import re, sys
text = open(sys.argv[1]).read()
changed = re.sub(sys.argv[3], sys.argv[4], text, count=1)
if changed == text:
    sys.exit(1)
open(sys.argv[2], "w").write(changed)
EOF
}

python3 "$script" --check --syncscope "$syncscope" || fail "README.md shows outputs the commands no longer print (diff above)"

# A cheap block whose shown output no longer matches: the configuration hash changed by hand.
altered_readme "$work/cheap.md" '(\$ syncscope config show --system qr-apu --set l1.size=32KiB --hash\n)[0-9a-f]{16}' \
    '\g<1>0123456789abcdef' "README has no config show --hash example"
refused "an altered cheap output (the diff must show it)" "$work/cheap.md" 1 '^-0123456789abcdef$' --session config

# An expensive session's shown output edited by hand: its digest no longer matches.
altered_readme "$work/expensive.md" '(\$ syncscope compare\n.*\n)' '\g<1>an edited line\n' \
    "README has no syncscope compare example"
refused "an edited expensive output (no digest message)" "$work/expensive.md" 1 \
    "session main \(expensive, not re-run here\): its digest" --session main

# A malformed directive: one line naming the README and its line, exit 2.
sed '0,/<!-- readme: session=config -->/s//<!-- readme: session=config colour=red -->/' \
    "$source_dir/README.md" >"$work/bad.md"
refused "a malformed directive" "$work/bad.md" 2 "bad.md:[0-9]+: readme directive: unknown key 'colour'"

# A depends entry FILE@REGEX whose REGEX matches no line of FILE: one line, exit 2.
altered_readme "$work/nomatch.md" '(session=main depends="tests/golden/behaviour\.golden@)\S+' '\g<1>^no\\sgolden\\sline$' \
    "README's main session has no filtered golden dependency"
refused "a depends regex that matches nothing" "$work/nomatch.md" 2 \
    "matches no line of tests/golden/behaviour\.golden" --session main

# A stale expensive session (--mark-stale): accepted with its visible note, refused when the
# note is gone or its shown text was edited after marking.
cp "$source_dir/README.md" "$work/stale.md"
python3 "$script" --readme "$work/stale.md" --mark-stale "a test's change" --session bench-detailed 2>/dev/null ||
    fail "--mark-stale failed"
grep -qF "> **Not re-run since a test's change**: this output is from an earlier build." "$work/stale.md" ||
    fail "--mark-stale wrote no visible note"
python3 "$script" --check --syncscope "$syncscope" --readme "$work/stale.md" --session bench-detailed >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "session bench-detailed: STALE" "$work/out" ||
    fail "a marked stale session: exit $rc or no STALE line: $(head -3 "$work/out")"
grep -vF "> **Not re-run since a test's change**" "$work/stale.md" >"$work/stale-no-note.md"
python3 "$script" --check --syncscope "$syncscope" --readme "$work/stale-no-note.md" --session bench-detailed \
    >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "does not say so above it" "$work/out" ||
    fail "a stale session without its note: exit $rc: $(head -3 "$work/out")"
python3 - "$work/stale.md" "$work/stale-edited.md" <<'EOF'
import sys
text = open(sys.argv[1]).read()
start = text.index("session=bench-detailed")
command = text.index("\n$ ", start)
second_line_end = text.index("\n", text.index("\n", command + 1) + 1)
open(sys.argv[2], "w").write(text[:second_line_end] + " (edited)" + text[second_line_end:])
EOF
python3 "$script" --check --syncscope "$syncscope" --readme "$work/stale-edited.md" --session bench-detailed \
    >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "shown text changed since" "$work/out" ||
    fail "a stale session edited after marking: exit $rc: $(head -3 "$work/out")"

[ "$failures" -eq 0 ] && echo "readme_outputs: all checks passed"
exit "$((failures > 0))"
