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
forbid ErrorWatchUI ErrorWatchDemo ErrorWatchRuntime ErrorWatchTerminal CNCurses ErrorWatchWire ErrorWatchIngest
forbid ErrorWatchDemo ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchWire ErrorWatchIngest CNCurses
# What an app links to send: no receivers, no HTTP server, no zlib, no protobuf, no gRPC.
forbid ErrorWatchWire ErrorWatchIngest ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchDemo CNCurses \
    NIOHTTP1 NIOHTTP2 CZlib SwiftProtobuf GRPCCore GRPCNIOTransportHTTP2 GRPCProtobuf
forbid ErrorWatchIngest ErrorWatchUI ErrorWatchRuntime ErrorWatchTerminal ErrorWatchDemo CNCurses
forbid ErrorWatchTerminal ErrorWatchRuntime ErrorWatchDemo ErrorWatchWire ErrorWatchIngest
forbid ErrorWatchRuntime ErrorWatchDemo CNCurses

# Only the terminal module talks to ncurses.
others=$(grep -rlnE "^\s*import\s+CNCurses" Sources --include='*.swift' | grep -v "^Sources/ErrorWatchTerminal/" || true)
if [[ -n "$others" ]]; then
    echo "check-imports: only ErrorWatchTerminal may import CNCurses:"
    echo "$others"
    status=1
fi

if [[ $status -eq 0 ]]; then echo "check-imports: the module layout holds"; fi
exit $status
