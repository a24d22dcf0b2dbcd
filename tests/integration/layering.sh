#!/bin/bash
# layering.sh — src/ is layered without cycles: each layer includes and calls only its own layer
# and those below it (order and rules in layering.py beside this file; today's violations in
# layering_exceptions.txt, which may only shrink).
# Usage: layering.sh PATH/TO/syncscope   (libsyncscope_core.a is in the same build directory;
# SYNCSCOPE_SOURCE_DIR is the source root, else the one this script is in)
set -u
here=$(dirname "$0")
source_dir=${SYNCSCOPE_SOURCE_DIR:-$here/../..}
exec python3 "$here/layering.py" "$source_dir" "$(dirname "$1")"
