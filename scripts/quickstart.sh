#!/usr/bin/env bash
# quickstart.sh — README command 1: installs what is missing, builds, and runs the main job on the
# built-in default (every mechanism over the built-in suite, stored in db/syncscope.sqlite, a
# comparison table printed and the SVG report written to notebooks_export/report/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
build/syncscope compare
