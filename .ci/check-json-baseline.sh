#!/bin/sh
# check-json-baseline.sh BIN OUTDIR: `check --json` on every scenario in tests/fixtures and
# on the pnpm fixture, each copied to the same place first so paths in the output do not
# change between runs. Run it with two binaries and `diff -r` the two OUTDIRs to show a
# refactoring changed no output. Not part of CI.
set -e
BIN=$1; OUT=$2; SRC=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures
mkdir -p "$OUT"; : > "$OUT/rc.txt"
W=/tmp/dreamreview-baseline; rm -rf "$W"; mkdir -p "$W"
for s in $(ls "$SRC/scenarios" | grep -v '\.'); do
  cp -r "$SRC/scenarios/$s" "$W/$s"
  d=$(ls -d "$W/$s"/dream-*)
  live=$(grep -m1 '^--- ' "$d/memory.diff" | sed 's/^--- //; s/\t.*//; s#\(.*/memory\)/.*#\1#')
  sed -i "s#$live#$W/$s/project/memory#g" "$d/memory.diff"
  (cd "$W/$s" && TZ=UTC HOME="$W" "$BIN" check "$d" --json > "$OUT/$s.json" 2> "$OUT/$s.err"; echo "$s rc=$?" >> "$OUT/rc.txt") || true
done
cp -r "$SRC/pnpm-migration" "$W/pnpm"
(cd "$W/pnpm" && TZ=UTC HOME="$W" "$BIN" check dream-2026-11-02 --memory project/memory --json > "$OUT/pnpm.json" 2> "$OUT/pnpm.err"; echo "pnpm rc=$?" >> "$OUT/rc.txt") || true
