#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs each for a fixed time (docs/fuzzing.md).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]      SECONDS per target, 600 by default; every target by default
#   JOBS=2 Fuzz/run.sh 600                 two targets at once (each on one core)
#
# Each target starts from its seed corpus (Fuzz/Corpus/TARGET, read only) and its working corpus
# (.build-fuzz-runs/TARGET/corpus, kept between runs, gitignored); crashes, leaks and timeouts are written to
# .build-fuzz-runs/TARGET/artifacts. Exits non-zero when the build fails or any target found anything.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-600}
shift || true
all=(FuzzWireDecoder FuzzRFC3339 FuzzThemeLoader FuzzRecordingReader FuzzLineReader FuzzOTLP FuzzOTLPTraces FuzzSentry FuzzGRPCFraming FuzzSentryItem)
targets=("$@")
((${#targets[@]} > 0)) || targets=("${all[@]}")
jobs=${JOBS:-1}
scratch=$root/.build-fuzz
# A Swift crash goes straight to libFuzzer's handler (which writes the input) instead of the Swift backtracer,
# which takes minutes to symbolicate a sanitized binary.
export SWIFT_BACKTRACE=enable=no
runs=$root/.build-fuzz-runs

# The longest input each target is given, and its dictionary.
max_len() {
    case $1 in
        FuzzRFC3339) echo 64 ;;
        FuzzWireDecoder) echo 8192 ;;
        FuzzOTLP | FuzzOTLPTraces | FuzzSentry | FuzzSentryItem) echo 65536 ;;
        *) echo 16384 ;;
    esac
}
dictionary() {
    case $1 in
        FuzzThemeLoader) echo Fuzz/Dictionaries/theme.dict ;;
        FuzzOTLP | FuzzOTLPTraces) echo Fuzz/Dictionaries/otlp.dict ;;
        FuzzSentry | FuzzSentryItem) echo Fuzz/Dictionaries/sentry.dict ;;
        *) echo Fuzz/Dictionaries/wire.dict ;;
    esac
}

# SwiftPM's --sanitize flags make it link libFuzzer's main and instrument the C targets, but it passes them to
# swiftc as two flags in no fixed order, and when -sanitize=address comes last the Swift code gets no coverage
# counters at all (libFuzzer then finds nothing new, ever). The combined -Xswiftc flag, last on the line, wins.
build=(swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
    --scratch-path "$scratch")
echo "fuzz: building (release, fuzzer + address sanitizers) into $scratch"
(cd Fuzz && "${build[@]}")
bin=$(cd Fuzz && "${build[@]}" --show-bin-path)

# Refuse to run uninstrumented binaries: the Swift code has some 120,000 counters, the C targets alone 2,500.
for target in "${targets[@]}"; do
    [[ -x $bin/$target ]] || { echo "fuzz: no target $target" >&2; exit 2; }
    counters=$("$bin/$target" -runs=0 2>&1 | sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p' | head -1)
    if ((${counters:-0} < 10000)); then
        echo "fuzz: $target has ${counters:-no} coverage counters; the Swift code is not instrumented" >&2
        exit 2
    fi
done

run_one() {
    local target=$1 dir=$runs/$1
    mkdir -p "$dir/corpus" "$dir/artifacts"
    local before
    before=$(find "$dir/corpus" -type f | wc -l)
    local status=0 started
    started=$(date +%s)
    "$bin/$target" "$dir/corpus" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -dict="$(dictionary "$target")" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
        >"$dir/log" 2>&1 || status=$?
    local elapsed after
    elapsed=$(($(date +%s) - started))
    after=$(find "$dir/corpus" -type f | wc -l)
    local executions rate
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
    local findings
    findings=$(find "$dir/artifacts" -type f | wc -l)
    local found=none
    [[ $status == 0 && $findings == 0 ]] || found="exit $status, $findings artifact(s)"
    # Seconds as run: a target stops at its first finding.
    printf '| %s | %s | %s | %s | %s → %s | %s |\n' "$target" "$elapsed" "${executions:-?}" "${rate:-?}" \
        "$before" "$after" "$found" >"$dir/summary"
    return "$status"
}

failed=0
pids=()
for target in "${targets[@]}"; do
    echo "fuzz: $target for ${seconds}s (log: $runs/$target/log)"
    run_one "$target" &
    pids+=($!)
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || failed=1; done
done
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done

echo
echo "| target | seconds | executions | exec/s | corpus (working) | findings |"
echo "| --- | ---: | ---: | ---: | --- | --- |"
for target in "${targets[@]}"; do
    cat "$runs/$target/summary"
    grep -q '| none |$' "$runs/$target/summary" || failed=1
done
if ((failed)); then
    echo "fuzz: findings; see .build-fuzz-runs/*/artifacts and the logs" >&2
    exit 1
fi
