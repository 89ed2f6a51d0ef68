#!/usr/bin/env bash
# Build and run proxima's whole test suite, the way CI does:
#   1. Debug with AddressSanitizer + UndefinedBehaviorSanitizer (every report is fatal), warnings as errors;
#   2. Release, warnings as errors;
#   3. install the Release build to a temporary prefix and build the example consumer out of tree,
#      once with find_package(proxima) and once with pkg-config, and run both.
# Installs missing Debian packages first (scripts/deps.sh). Usage: scripts/test.sh [ctest arguments]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/deps.sh"

jobs="$(nproc 2>/dev/null || echo 2)"
build="$root/build"

run_config() {
  local name="$1"; shift
  echo "== proxima: $name build"
  cmake -S "$root" -B "$build/$name" -DPROXIMA_WERROR=ON "$@" >/dev/null
  cmake --build "$build/$name" -j "$jobs"
  echo "== proxima: $name tests"
  ctest --test-dir "$build/$name" --output-on-failure -j "$jobs" "${ctest_args[@]}"
}

ctest_args=("$@")
run_config asan -DCMAKE_BUILD_TYPE=Debug -DPROXIMA_SANITIZE=ON
run_config release -DCMAKE_BUILD_TYPE=Release

echo "== proxima: install and build the consumer example out of tree"
prefix="$build/prefix"
rm -rf "$prefix"
cmake --install "$build/release" --prefix "$prefix" >/dev/null
cmake -S "$root/examples/consumer" -B "$build/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer" -j "$jobs" >/dev/null
"$build/consumer/distance_example"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch 2>/dev/null || true)/pkgconfig:${PKG_CONFIG_PATH:-}" \
  sh -c 'cc -std=c11 -O2 "$0" -o "$1" $(pkg-config --cflags --libs proxima)' \
  "$root/examples/distance.c" "$build/consumer/distance_example_pkgconfig"
"$build/consumer/distance_example_pkgconfig"
echo "== proxima: all tests passed"
