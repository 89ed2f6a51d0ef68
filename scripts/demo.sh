#!/usr/bin/env bash
# Build proxima (Release) and run its main job: `proxima demo`, the whole pipeline on the built-in scene
# (or on a mesh: scripts/demo.sh --mesh ../shared/data/bunny.obj). Pictures go to ./out/ unless
# --out DIR is given. Installs missing Debian packages first (scripts/deps.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh"
build="$root/build/release"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target proxima_cli >/dev/null
exec "$build/tools/proxima" demo "$@"
