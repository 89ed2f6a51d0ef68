#!/usr/bin/env bash
# Install what proxima's build, tests, demo and benchmarks need, from Debian's packages.
# Does nothing when everything is already installed; needs root (or sudo) otherwise.
#   scripts/deps.sh            build + tests + demo
#   scripts/deps.sh --bench    also what the benchmarks link
set -euo pipefail

# locales: glibc's locale sources, from which test_io builds de_DE and ps_AF (decimal comma, two-byte point)
packages=(cmake make gcc g++ pkg-config locales libcglm-dev libstb-dev libgmp-dev libbullet-dev libccd-dev libembree-dev librecast-dev)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libfcl-dev libembree-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "proxima: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "proxima: need root to run: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
# a fresh machine may have empty package lists; a failed install retries after an update
$sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
}
