#!/usr/bin/env bash
# The fuzz targets (Fuzz/, a package of their own) build only with libFuzzer and the sanitizers, in release, which
# CI cannot afford; without a check they rot unseen when an API they call changes. This type-checks each target's
# sources against the root package's debug build (its modules and C module maps), in about a minute.
# Usage: .ci/typecheck-fuzz.sh (after `swift build`). Exits non-zero when a target does not type-check.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$(swift build --show-bin-path)"
MODULES="$BIN/Modules"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# Every C module once: the build's own maps, the packages' include/ maps and ours (the build does not copy them).
mapfile -t MAPS < <(
    { find "$BIN/" -maxdepth 2 -name module.modulemap; find .build/checkouts -path '*include*' -name module.modulemap
      ls Sources/*/module.modulemap; } |
        python3 -c '
import re, sys
seen = set()
for path in map(str.strip, sys.stdin):
    found = re.search(r"module\s+(\S+)", open(path).read())
    if found and found.group(1) not in seen:
        seen.add(found.group(1))
        print("-Xcc\n-fmodule-map-file=" + path)
')
flags=(-swift-version 6 -parse-as-library -I "$MODULES" -I "$OUT" "${MAPS[@]}")
swiftc -emit-module -module-name FuzzSupport -emit-module-path "$OUT/FuzzSupport.swiftmodule" "${flags[@]}" \
    Fuzz/Sources/FuzzSupport/*.swift
failed=0
for target in Fuzz/Sources/Fuzz*/; do
    name="$(basename "$target")"
    [[ "$name" == FuzzSupport ]] && continue
    if swiftc -typecheck "${flags[@]}" "$target"*.swift; then echo "ok   $name"; else echo "FAIL $name"; failed=1; fi
done
exit "$failed"
