#!/usr/bin/env bash
# Regenerates Sources/ErrorWatchIngest/OTLP/Generated/*.pb.swift from Protos/ (errorwatch's own subset of the
# OpenTelemetry protocol's messages). Run it after editing a .proto file and commit the result: neither CI nor
# users build the plugin.
#
# Needs protoc (Debian's protobuf-compiler) and protoc-gen-swift from apple/swift-protobuf at the version
# Package.swift names (1.39.0). The plugin is looked for on PATH, then in $PROTOC_GEN_SWIFT; build it once
# outside the repository, for example:
#   git clone --branch 1.39.0 https://github.com/apple/swift-protobuf /tmp/swift-protobuf
#   swift build -c release --product protoc-gen-swift --package-path /tmp/swift-protobuf
#   PROTOC_GEN_SWIFT=/tmp/swift-protobuf/.build/release/protoc-gen-swift scripts/generate-otlp.sh
set -euo pipefail
cd "$(dirname "$0")/.."

plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}"
[[ -x "$plugin" ]] || { echo "generate-otlp: protoc-gen-swift not found (set PROTOC_GEN_SWIFT)" >&2; exit 1; }
command -v protoc >/dev/null || { echo "generate-otlp: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }

out=Sources/ErrorWatchIngest/OTLP/Generated
rm -f "$out"/*.pb.swift
mkdir -p "$out"
# Internal visibility: the generated types are the receiver's business, not ErrorWatchIngest's public API.
# FileNaming=DropPath: one flat folder (every file name is distinct).
protoc --plugin=protoc-gen-swift="$plugin" -I Protos \
    --swift_opt=Visibility=Internal --swift_opt=FileNaming=DropPath --swift_out="$out" \
    $(cd Protos && find . -name '*.proto' | sort | sed 's|^\./||')
echo "generate-otlp: wrote $(ls "$out" | wc -l) files to $out"
