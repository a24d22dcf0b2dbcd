#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages syncscope needs to build and test, if missing.
# As root it runs apt-get; otherwise it prints the exact command to run and fails.
set -euo pipefail
packages=(build-essential cmake pkg-config libgsl-dev libsqlite3-dev libcjson-dev libcmocka-dev python3
          librsvg2-bin)   # rsvg-convert: every figure gets a PNG and a PDF beside its SVG
if [ "${SYNCSCOPE_TEST_DEPS:-0}" = 1 ]; then
  packages+=(chromium clang sqlite3 util-linux)   # SVG rendering test; libFuzzer builds; the sqlite3 shell
  # (tests that damage a database or hold its lock); setpriv (readers run as another user)
  packages+=(parallel slurmctld slurmd slurm-client munge)   # the README's sharded sweep recipe
  # (tests/integration/sweep_cluster.sh): GNU parallel, and a single-node Slurm the test starts
  packages+=(jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib)   # the notebook test
  # executes every exported notebook headless
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "syncscope needs: ${missing[*]}" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
