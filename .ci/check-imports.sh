#!/usr/bin/env bash
# The module layout in docs/architecture.md, enforced: arrows point one way. Fails when a module imports one it
# must not know (the pure UI knows no demo, runtime or ncurses; the demo is an app like any other and knows no
# dashboard). Run by .ci/run; exits non-zero with the offending lines.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
forbid() {
    local module=$1
    shift
    for imported in "$@"; do
        local hits
        hits=$(grep -rnE "^\s*(@testable\s+)?(@_exported\s+)?import\s+(struct\s+|class\s+|enum\s+|func\s+)?${imported}(\.|\s*$)" \
            "Sources/$module" --include='*.swift' || true)
        if [[ -n "$hits" ]]; then
            echo "check-imports: $module must not import $imported:"
            echo "$hits"
            status=1
        fi
    done
}

forbid ErrorStreaming ErrorStreamingTesting ErrorStreamingMetrics ErrorWatchWire ErrorWatchIngest ErrorWatchUI ErrorWatchRuntime \
    ErrorWatchTerminal ErrorWatchDemo CNCurses Logging CoreMetrics Metrics
# The metrics recorder needs ErrorStreaming and swift-metrics' CoreMetrics, nothing else: an app links only those.
forbid ErrorStreamingMetrics ErrorStreamingTesting ErrorWatchWire ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal \
    ErrorWatchDemo CNCurses Logging Metrics
forbid ErrorWatchUI ErrorWatchDemo ErrorWatchRuntime ErrorWatchTerminal CNCurses ErrorWatchWire ErrorWatchIngest \
    ErrorWatchStore GRDB GRDBSQLite SQLite3
# The store knows the UI's model (issues, triage) and SQLite; never the runtime, the terminal or the ways in.
forbid ErrorWatchStore ErrorWatchRuntime ErrorWatchTerminal ErrorWatchDemo CNCurses ErrorWatchWire ErrorWatchIngest
forbid ErrorWatchDemo ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchWire ErrorWatchIngest CNCurses
# What an app links to send: no receivers, no HTTP server, no zlib, no protobuf, no gRPC.
forbid ErrorWatchWire ErrorWatchIngest ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchDemo CNCurses \
    NIOHTTP1 NIOHTTP2 CZlib SwiftProtobuf GRPCCore GRPCNIOTransportHTTP2 GRPCProtobuf
forbid ErrorWatchIngest ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchDemo CNCurses
forbid ErrorWatchTerminal ErrorWatchRuntime ErrorWatchDemo ErrorWatchWire ErrorWatchIngest
forbid ErrorWatchRuntime ErrorWatchDemo CNCurses

# Only the store talks to SQLite.
sqlite=$(grep -rlnE "^\s*import\s+(GRDB|GRDBSQLite|SQLite3)\b" Sources --include='*.swift' |
    grep -v "^Sources/ErrorWatchStore/" || true)
if [[ -n "$sqlite" ]]; then
    echo "check-imports: only ErrorWatchStore may import GRDB or SQLite:"
    echo "$sqlite"
    status=1
fi

# Only the terminal module talks to ncurses.
others=$(grep -rlnE "^\s*import\s+CNCurses" Sources --include='*.swift' | grep -v "^Sources/ErrorWatchTerminal/" || true)
if [[ -n "$others" ]]; then
    echo "check-imports: only ErrorWatchTerminal may import CNCurses:"
    echo "$others"
    status=1
fi

# No production target depends on a *Testing target or product (test doubles ship for tests only). Production: a
# `.target` or `.executableTarget` in Package.swift that is not itself a *Testing target and does not live under
# Tests/. Each declaration runs from its `.kind(` line to the next; comments are skipped.
testing_deps=$(awk '
    function report() {
        if (production && deps != "") printf "  %s depends on%s\n", name, deps
    }
    /^[[:space:]]*\/\// { next }
    /^[[:space:]]*\.(target|executableTarget|testTarget|systemLibrary|binaryTarget|macro|plugin)\(/ {
        report()
        kind = $0; sub(/^[[:space:]]*\./, "", kind); sub(/\(.*/, "", kind)
        inside = 1; name = ""; deps = ""
        production = (kind == "target" || kind == "executableTarget")
    }
    !inside { next }
    name == "" && match($0, /name:[[:space:]]*"[^"]+"/) {
        name = substr($0, RSTART, RLENGTH); sub(/^name:[[:space:]]*"/, "", name); sub(/"$/, "", name)
        if (name ~ /Testing$/) production = 0
    }
    /path:[[:space:]]*"Tests\// { production = 0 }
    {
        line = $0
        if (index(line, "name: \"" name "\"") > 0) sub("name: \"" name "\"", "", line)
        while (match(line, /"[A-Za-z0-9_]*Testing"/)) {
            deps = deps " " substr(line, RSTART + 1, RLENGTH - 2)
            line = substr(line, RSTART + RLENGTH)
        }
    }
    END { report() }
' Package.swift)
if [[ -n "$testing_deps" ]]; then
    echo "check-imports: production targets must not depend on *Testing targets or products (Package.swift):"
    echo "$testing_deps"
    status=1
fi

# The product graph, not only the imports: what an app links to send (ErrorWatchWire, and ErrorStreaming under it)
# depends on no gRPC, HTTP/2, HTTP server or protobuf package in Package.swift, so linking it never builds them.
# Each target's declaration runs from its `.target(` line to the next; comments are skipped.
for target in ErrorWatchWire ErrorStreaming; do
    heavy=$(awk -v target="$target" '
        /^[[:space:]]*\/\// { next }
        /^[[:space:]]*\.(target|executableTarget|testTarget|systemLibrary|binaryTarget|macro|plugin)\(/ { inside = 0; named = 0 }
        /^[[:space:]]*\.target\(/ { inside = 1 }
        inside && !named && match($0, /name:[[:space:]]*"[^"]+"/) {
            named = 1
            name = substr($0, RSTART, RLENGTH); sub(/^name:[[:space:]]*"/, "", name); sub(/"$/, "", name)
            if (name != target) inside = 0
        }
        inside && /grpc-swift|GRPC|NIOHTTP1|NIOHTTP2|swift-protobuf|CZlib/ { print "  " $0 }
    ' Package.swift)
    if [[ -n "$heavy" ]]; then
        echo "check-imports: $target must not depend on gRPC, HTTP or protobuf packages (Package.swift):"
        echo "$heavy"
        status=1
    fi
done

if [[ $status -eq 0 ]]; then echo "check-imports: the module layout holds"; fi
exit $status
