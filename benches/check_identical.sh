#!/usr/bin/env bash
# Runs two dreamreview binaries' `check --json` over every dream fixture (the scenarios of
# tests/fixtures/scenarios/ and tests/fixtures/pnpm-migration, laid out as
# tests/common/mod.rs::scenario lays them: a copy whose memory.diff headers name the
# copy's live folder) and over any extra `DREAM MEMORY` pairs given, and compares the
# outputs byte for byte. Exit 1 when one differs.
#
#   benches/check_identical.sh OLD_BIN NEW_BIN [DREAM MEMORY]...
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

run() { # BIN DREAM [MEMORY] > stdout
    local bin=$1 dream=$2 memory=${3:-}
    local args=(check "$dream" --json)
    [ -n "$memory" ] && args+=(--memory "$memory")
    (cd "$(dirname "$dream")" && env NO_COLOR=1 GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" TZ=UTC \
        XDG_CACHE_HOME="$work/cache" DREAMREVIEW_INDEX_INLINE_BYTES=18446744073709551615 \
        "$bin" "${args[@]}") || [ $? -eq 1 ]
}

compare() { # LABEL DREAM [MEMORY]
    local label=$1
    shift
    run "$old" "$@" > "$work/old.json"
    run "$new" "$@" > "$work/new.json"
    if cmp -s "$work/old.json" "$work/new.json"; then
        echo "identical  $label ($(wc -c < "$work/new.json") bytes)"
    else
        echo "DIFFERENT  $label"
        diff <(head -c 200000 "$work/old.json") <(head -c 200000 "$work/new.json") | head -20 || true
        status=1
    fi
}

mkdir -p "$work/home"
for src in "$here"/tests/fixtures/scenarios/*/ "$here"/tests/fixtures/pnpm-migration/; do
    name=$(basename "$src")
    cp -r "$src" "$work/$name"
    root="$work/$name"
    dream=$(find "$root" -maxdepth 1 -type d -name 'dream-*' | head -1)
    [ -n "$dream" ] || continue
    if [ -f "$dream/memory.diff" ]; then
        live=$(grep -m1 '^--- ' "$dream/memory.diff" | sed 's/^--- //; s/\t.*//; s#\(.*/memory\)/.*#\1#')
        python3 - "$dream/memory.diff" "$live" "$root/project/memory" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(s.replace(old, new))
PY
    fi
    compare "$name" "$dream"
done
while [ $# -ge 2 ]; do
    compare "$1" "$1" "$2"
    shift 2
done
exit $status
