#!/usr/bin/env bash
# Installs what uop-mlir needs on Debian bookworm: Debian's LLVM/MLIR 22, the
# build tools, and what the tests use. Does nothing when everything is present,
# so it is cheap to run before every build. Arguments are more packages a
# script needs (scripts/sanitize.sh: the sanitizer runtimes).
set -euo pipefail

packages=(
  cmake ninja-build ccache clang-22
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  python3 python3-numpy python3-dev python3-pytest python3-pybind11 pybind11-dev python3-venv
  zlib1g-dev libzstd-dev
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
