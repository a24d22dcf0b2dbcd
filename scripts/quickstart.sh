#!/usr/bin/env bash
# quickstart.sh — README command 1: installs what is missing, builds quietly (the compiler's
# output goes to build/build.log, shown only when the build fails), installs syncscope into
# ~/.local (or $SYNCSCOPE_PREFIX) so that it runs by name, runs the main job on the built-in
# default (every mechanism over the built-in suite, stored in db/syncscope.sqlite, a comparison
# table printed and the SVG report written to notebooks_export/report/), and ends with where the
# results are and three commands to try next.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${SYNCSCOPE_PREFIX:-$HOME/.local}
scripts/install-deps.sh
mkdir -p build
echo "building syncscope (compiler output in build/build.log)..."
if ! scripts/build.sh build >build/build.log 2>&1; then
    tail -n 40 build/build.log
    echo "quickstart: the build failed; the whole log is build/build.log" >&2
    exit 1
fi
cmake --install build --prefix "$prefix" >build/install.log
echo "installed $prefix/bin/syncscope"
echo
build/syncscope compare
echo
echo "== done"
echo "results:  db/syncscope.sqlite (every run; syncscope query --list shows the canned questions)"
echo "report:   notebooks_export/report/ (comparison and GSI stall figures, SVG)"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "PATH:     $prefix/bin is not on your PATH; add it with"
       echo "            export PATH=\"$prefix/bin:\$PATH\""
       echo "          (in ~/.bashrc to keep it), or call $prefix/bin/syncscope" ;;
esac
echo "try next:"
echo "  syncscope query geomean_speedup                       # each mechanism's speedup over wt"
echo "  syncscope run -w histogram -m qr --mode detailed      # one workload, cycles and GSI stalls"
echo "  syncscope export speedup --format ipynb               # a notebook of the speedups"
