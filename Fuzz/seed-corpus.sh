#!/usr/bin/env bash
# Writes the seed corpus, Fuzz/Corpus/<target>/, from the repository's own examples: the wire lines of
# docs/wire-format.md and the foreign-producer fixture, the log shapes of docs/formats.md, the themes of Themes/,
# OTLP bodies (OTLP/JSON as in the receiver's tests, Sentry envelopes as the Python SDK writes them, protobuf encoded from text by protoc with Protos/), and edge
# cases. Run it again after a format changes; the files are committed. Needs protoc for the protobuf seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=Fuzz/Corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{FuzzWireDecoder,FuzzRFC3339,FuzzThemeLoader,FuzzRecordingReader,FuzzLineReader,FuzzOTLP,FuzzOTLPTraces,FuzzSentry,FuzzGRPCFraming,FuzzSentryItem}

# seed TARGET NAME: standard input into Corpus/TARGET/NAME.
seed() { cat >"$corpus/$1/$2"; }

# --- NDJSON wire lines (FuzzWireDecoder), and the files made of them (FuzzRecordingReader).
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" | seed FuzzWireDecoder "doc-$n"
done < <(grep '^{"v"' docs/wire-format.md | grep '}$')
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" | seed FuzzWireDecoder "fixture-$n"
done < <(sort -u -t'"' -k12,12 Tests/ErrorWatchRuntimeTests/Fixtures/foreign-producer.ndjson | head -8)
printf '%s' '{"v":1,"kind":"error","time":"2026-11-22T00:40:00Z","exception.type":"E\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t","attributes":{"a":"b","n":{"deep":[1,2.5e3,-0.0,true,false,null]}},"unknown":[[[]]]}' | seed FuzzWireDecoder escapes
printf '%s' '{"v":1,"kind":"metric","time":"2026-11-22T00:40:00.999999999Z","metric.name":"m","metric.value":-1.7976931348623157e308,"metric.kind":"counter"}' | seed FuzzWireDecoder extreme-number
printf '%s' '{"v":1,"kind":"log","time":"9999-12-31T23:59:60.5-23:59","body":"\ud800","severity":"fatal","process.pid":9223372036854775807}' | seed FuzzWireDecoder edge-time
printf '%s' '{"v":2,"kind":"error"}' | seed FuzzWireDecoder version-2
printf '%s' '[[[[[[[[[[[[[[[[[[[[{"v":1}]]]]]]]]]]]]]]]]]]]' | seed FuzzWireDecoder nesting

cp Tests/ErrorWatchRuntimeTests/Fixtures/foreign-producer.ndjson "$corpus/FuzzRecordingReader/fixture"
grep '^{"v"' docs/wire-format.md | grep '}$' | seed FuzzRecordingReader docs
printf '%s\n%s\n\n%s' '{"v":1,"kind":"log","time":"1970-01-01T00:00:00Z","body":"a"}' 'not json' \
    '{"v":1,"kind":"log","time":"2100-01-01T00:00:00Z","body":"unterminated"}' | seed FuzzRecordingReader gap-and-bad

# --- RFC 3339 (FuzzRFC3339): the time text alone.
for t in 2026-11-22T00:40:00.123456Z 2026-11-22T01:40:00+01:00 2026-11-22t00:40:00z "2026-11-22 00:40:00-00:30" \
    2024-02-29T23:59:60Z 0000-01-01T00:00:00+23:59 9999-12-31T23:59:59.9999999999-23:59 2026-02-31T00:00:00Z \
    2026-11-22T00:40:00.Z 2026-11-22T24:00:00Z 1970-01-01T00:00:00Z; do
    printf '%s' "$t" | seed FuzzRFC3339 "$(printf '%s' "$t" | tr -c 'A-Za-z0-9' _)"
done

# --- Themes (FuzzThemeLoader).
for f in Themes/*.json; do cp "$f" "$corpus/FuzzThemeLoader/$(basename "$f")"; done
printf '%s' '{"name":"x","roles":{"severityError":{"fg":"#ff0000","bg":196,"bold":true,"dim":1},"nope":"red","title":[]},"extra":null}' | seed FuzzThemeLoader problems

# --- Log shapes (FuzzLineReader): a first byte picks the format (below 128: auto) and chunking, then the lines.
n=0
while IFS= read -r line; do
    n=$((n + 1))
    { printf '\x00'; printf '%s\n' "$line"; } | seed FuzzLineReader "formats-$n"
done < <(awk '/^```$/{inside=!inside; next} inside' docs/formats.md)
{ printf '\x05'; awk '/^```$/{inside=!inside; next} inside' docs/formats.md; } | seed FuzzLineReader formats-all
{ printf '\x21'; cat <<'LOG'
2026-11-23T10:00:00.250+01:00 [main] WARN  c.s.Pay - slow
Exception in thread "main" java.lang.IllegalStateException: boom
	at shop.Main.run(Main.java:10)
	... 3 more
Caused by: java.io.IOException: io
panic: runtime error: index out of range

goroutine 1 [running]:
main.main()
	/src/main.go:5 +0x1d
Nov 23 10:00:00 web-1 app[42]: E1123 10:00:00.000000 42 file.go:10] failed
level=info msg="ok" count=3 key="a \"quoted\" value"
LOG
} | seed FuzzLineReader traces
printf '\x80%s\n' '{"v":1,"kind":"log","time":"2026-11-22T00:40:00Z","body":"wire"}' | seed FuzzLineReader wire-format

# --- OTLP (FuzzOTLP): a first byte picks logs (even) or metrics (odd), protobuf (bit 1 clear) or JSON, gzip (bit 2).
{ printf '\x02'; cat <<'JSON'
{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}},
{"key":"process.pid","value":{"intValue":"77"}}]},
"scopeLogs":[{"scope":{"name":"payments"},"logRecords":[{"timeUnixNano":"1700000000000000000",
"severityNumber":17,"body":{"stringValue":"boom"},
"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
"attributes":[{"key":"exception.type","value":{"stringValue":"ValueError"}},
{"key":"exception.message","value":{"stringValue":"bad"}},{"key":"code.lineno","value":{"intValue":3}},
{"key":"list","value":{"arrayValue":{"values":[{"doubleValue":1.5},{"boolValue":true},{"bytesValue":"AAE="}]}}},
{"key":"map","value":{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}}]}]}]}]}
JSON
} | seed FuzzOTLP logs.json
{ printf '\x03'; cat <<'JSON'
{"resourceMetrics":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"shop"}}]},
"scopeMetrics":[{"scope":{"name":"meter"},"metrics":[
{"name":"orders","unit":"1","sum":{"aggregationTemporality":2,"isMonotonic":true,"dataPoints":[
{"startTimeUnixNano":"1","timeUnixNano":"1700000000000000000","asInt":"8","attributes":[{"key":"route","value":{"stringValue":"/checkout"}}]}]}},
{"name":"memory","unit":"By","gauge":{"dataPoints":[{"asDouble":1024}]}},
{"name":"latency","unit":"ms","histogram":{"aggregationTemporality":2,"dataPoints":[{"startTimeUnixNano":"1","count":"3","sum":120,"bucketCounts":["1","2","0"],"explicitBounds":[10,100]}]}},
{"name":"size","exponentialHistogram":{"aggregationTemporality":1,"dataPoints":[{"scale":2,"zeroCount":"1","count":"4","positive":{"offset":-2,"bucketCounts":["1","2"]},"negative":{"offset":1,"bucketCounts":["0"]}}]}},
{"name":"rpc","summary":{"dataPoints":[{}]}}]}]}]}
JSON
} | seed FuzzOTLP metrics.json
protos=Protos
{ printf '\x00'; protoc -I "$protos" --encode=opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest \
    "$protos/opentelemetry/proto/collector/logs/v1/logs_service.proto" <<'TEXT'
resource_logs {
  resource { attributes { key: "service.name" value { string_value: "shop" } }
             attributes { key: "process.pid" value { int_value: 4242 } } }
  scope_logs {
    scope { name: "app" }
    log_records { time_unix_nano: 1700000000123456000 severity_number: SEVERITY_NUMBER_ERROR severity_text: "ERROR"
      body { string_value: "payment failed" } trace_id: "\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017"
      span_id: "\240\241\242\243\244\245\246\247"
      attributes { key: "exception.type" value { string_value: "CardDeclined" } }
      attributes { key: "exception.stacktrace" value { string_value: "Traceback (most recent call last):\n  File \"app.py\", line 3" } }
      attributes { key: "http.route" value { string_value: "/checkout" } } }
    log_records { severity_number: SEVERITY_NUMBER_INFO body { kvlist_value { values { key: "a" value { double_value: 2.5 } } } } }
  }
}
TEXT
} | seed FuzzOTLP logs.pb
{ printf '\x01'; protoc -I "$protos" --encode=opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest \
    "$protos/opentelemetry/proto/collector/metrics/v1/metrics_service.proto" <<'TEXT'
resource_metrics {
  resource { attributes { key: "service.name" value { string_value: "shop" } } }
  scope_metrics {
    scope { name: "meter" }
    metrics { name: "orders" unit: "1" sum { aggregation_temporality: AGGREGATION_TEMPORALITY_CUMULATIVE is_monotonic: true
      data_points { start_time_unix_nano: 1 time_unix_nano: 1700000000000000000 as_int: 5
        attributes { key: "route" value { string_value: "/checkout" } } } } }
    metrics { name: "memory" unit: "By" gauge { data_points { as_double: 1024 } } }
    metrics { name: "latency" unit: "ms" histogram { aggregation_temporality: AGGREGATION_TEMPORALITY_CUMULATIVE
      data_points { start_time_unix_nano: 1 count: 3 sum: 120 bucket_counts: [1, 2, 0] explicit_bounds: [10, 100] } } }
    metrics { name: "size" exponential_histogram { aggregation_temporality: AGGREGATION_TEMPORALITY_CUMULATIVE
      data_points { scale: 3 zero_count: 1 count: 4 positive { offset: -3 bucket_counts: [1, 2] } } } }
  }
}
TEXT
} | seed FuzzOTLP metrics.pb
{ printf '\x04'; tail -c +2 "$corpus/FuzzOTLP/logs.pb" | gzip -9n; } | seed FuzzOTLP logs.pb.gz
{ printf '\x07'; tail -c +2 "$corpus/FuzzOTLP/metrics.json" | gzip -9n; } | seed FuzzOTLP metrics.json.gz

# --- OTLP traces (FuzzOTLPTraces): a first byte picks protobuf (bit 1 clear) or JSON, gzip (bit 2).
{ printf '\x02'; cat <<'JSON'
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}},
{"key":"service.version","value":{"stringValue":"2.4.1"}}]},
"scopeSpans":[{"scope":{"name":"flask"},"spans":[
{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","parentSpanId":"0102030405060708",
"name":"GET /items","kind":2,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000250000000",
"status":{"code":2,"message":"KeyError: 'sku'"},"attributes":[{"key":"http.route","value":{"stringValue":"/items"}}],
"events":[{"timeUnixNano":"1700000000100000000","name":"exception","attributes":[
{"key":"exception.type","value":{"stringValue":"KeyError"}},{"key":"exception.message","value":{"stringValue":"'sku'"}},
{"key":"exception.stacktrace","value":{"stringValue":"Traceback (most recent call last):"}}]}]},
{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0102030405060708","name":"root","kind":"SPAN_KIND_SERVER",
"status":{"code":"STATUS_CODE_ERROR"}},
{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0a0a0a0a0a0a0a0a","parentSpanId":"0a0a0a0a0a0a0a0a","name":"self"},
{"traceId":"5b8e","spanId":"0b","name":"short ids"},
{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0c0c0c0c0c0c0c0c","name":"far","startTimeUnixNano":"7258118400000000000",
"status":{"code":2},"attributes":[{"key":"error.type","value":{"stringValue":"timeout"}}]}]}]}]}
JSON
} | seed FuzzOTLPTraces traces.json
{ printf '\x00'; protoc -I "$protos" --encode=opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest \
    "$protos/opentelemetry/proto/collector/trace/v1/trace_service.proto" <<'TEXT'
resource_spans {
  resource { attributes { key: "service.name" value { string_value: "shop" } } }
  scope_spans {
    scope { name: "tracer" }
    spans { trace_id: "\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017" span_id: "\000\000\000\000\000\000\000\002"
      parent_span_id: "\000\000\000\000\000\000\000\001" name: "charge" kind: SPAN_KIND_CLIENT
      start_time_unix_nano: 1700000000000000000 end_time_unix_nano: 1700000000900000000
      status { code: STATUS_CODE_ERROR message: "CardDeclined: declined" }
      events { time_unix_nano: 1700000000500000000 name: "exception"
        attributes { key: "exception.type" value { string_value: "CardDeclined" } }
        attributes { key: "exception.message" value { string_value: "declined" } } } }
    spans { trace_id: "\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017" span_id: "\000\000\000\000\000\000\000\001"
      name: "POST /checkout" kind: SPAN_KIND_SERVER status { code: STATUS_CODE_ERROR }
      events { name: "exception"
        attributes { key: "exception.type" value { string_value: "CardDeclined" } }
        attributes { key: "exception.message" value { string_value: "declined" } } } }
  }
}
TEXT
} | seed FuzzOTLPTraces traces.pb
{ printf '\x04'; tail -c +2 "$corpus/FuzzOTLPTraces/traces.pb" | gzip -9n; } | seed FuzzOTLPTraces traces.pb.gz
# --- Sentry (FuzzSentry): a first byte picks the envelope (0, 3), store (1) or stream (2) endpoint, gzip (bit 2).
sentry_event='{"event_id":"82db82e17ecd4b24911d62035e5731a6","timestamp":"2026-11-25T18:14:19.820000Z","level":"error","platform":"python","release":"shop@1.4.2","environment":"staging","exception":{"values":[{"type":"InventoryError","value":"shelf is empty","mechanism":{"type":"threading","handled":false},"stacktrace":{"frames":[{"function":"restock","module":"shop","filename":"shop.py","lineno":33,"in_app":true,"pre_context":["def restock(run):"],"context_line":"    raise InventoryError(shelf)","post_context":[""],"vars":{"shelf":"'"'"'north'"'"'"}}]}}]},"tags":{"run":"a1"},"contexts":{"trace":{"trace_id":"40beb41695bc4d4fadba2d6f6b171953","span_id":"92d5ea3c50388607"}},"breadcrumbs":{"values":[{"timestamp":1795000000.5,"category":"auth","message":"signed in","data":{"user":"ada"}}]},"fingerprint":["{{ default }}"]}'
sentry_transaction='{"type":"transaction","transaction":"checkout","contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"830dd69515c89dfa","status":"ok"}},"spans":[{"op":"db.query","description":"SELECT","status":"internal_error","span_id":"1111111111111111"}]}'
sentry_log='{"items":[{"timestamp":1795000002,"level":"warn","body":"disk low","attributes":{"free":{"value":3,"type":"integer"}}}]}'
envelope() {
    printf '%s\n' '{"event_id":"82db82e17ecd4b24911d62035e5731a6","sdk":{"name":"sentry.python","version":"2.75.0"}}'
    printf '{"type":"event","length":%d}\n%s\n' "${#sentry_event}" "$sentry_event"
    printf '{"type":"transaction"}\n%s\n' "$sentry_transaction"
    printf '{"type":"log","length":%d}\n%s\n' "${#sentry_log}" "$sentry_log"
    printf '{"type":"attachment","length":4}\nDATA\n{"type":"client_report"}\n{}\n'
}
{ printf '\x00'; envelope; } | seed FuzzSentry envelope
{ printf '\x04'; envelope | gzip -9n; } | seed FuzzSentry envelope.gz
{ printf '\x01'; printf '%s' "$sentry_event"; } | seed FuzzSentry store.json
{ printf '\x02'; envelope; } | seed FuzzSentry stream

# --- OTLP/gRPC calls (FuzzGRPCFraming): a first byte seeds the frame sizes, then five-byte prefixed messages: one
# uncompressed OTLP message (the protobuf logs seed), one compressed, an empty one, and a message cut short.
{ printf '\x07'; body=$(tail -c +2 "$corpus/FuzzOTLP/logs.pb" | xxd -p | tr -d '\n')
  printf '00%08x%s' $(( ${#body} / 2 )) "$body" | xxd -r -p; } | seed FuzzGRPCFraming logs
{ printf '\x02'; printf '\x01\x00\x00\x00\x03abc\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x0a'; } |
    seed FuzzGRPCFraming messages
{ printf '\xff'; printf '\x00\x7f\xff\xff\xff\x00\x01'; } | seed FuzzGRPCFraming huge
# --- One Sentry item (FuzzSentryItem): a first byte picks event (0, 3), transaction (1) or log (2), and the store
# endpoint (bit 2) instead of an envelope; then the payload, with the reader's edges: a long stack, a long chain,
# many breadcrumbs, escapes and lone surrogates, deep nesting, numbers at their limits.
{ printf '\x00'; printf '%s' "$sentry_event"; } | seed FuzzSentryItem event
{ printf '\x04'; printf '%s' "$sentry_event"; } | seed FuzzSentryItem event-store
{ printf '\x01'; printf '%s' "$sentry_transaction"; } | seed FuzzSentryItem transaction
{ printf '\x02'; printf '%s' "$sentry_log"; } | seed FuzzSentryItem log
frames=$(for i in $(seq 1 300); do printf '{"function":"f%d","lineno":%d,"in_app":true},' "$i" "$i"; done)
{ printf '\x00'; printf '{"exception":{"values":[{"type":"E","stacktrace":{"frames":[%s{}]}}]}}' "$frames"; } |
    seed FuzzSentryItem frames
chain=$(for i in $(seq 1 25); do printf '{"type":"E%d"},' "$i"; done)
crumbs=$(for i in $(seq 1 120); do printf '{"message":"c%d"},' "$i"; done)
{ printf '\x00'; printf '{"exception":[%s{}],"breadcrumbs":[%s{}]}' "$chain" "$crumbs"; } | seed FuzzSentryItem chain
{ printf '\x00'; printf '%s' '{"message":"a \ud800 b \udc00 \ud83d\ude00 \u00e9 \"q\" \\ \/ \b\f\n\r\t","extra":{"n":-1.5e-300,"i":18446744073709551615,"z":-0,"t":true,"f":false,"x":null,"l":[[],{}]}}'; } |
    seed FuzzSentryItem escapes
{ printf '\x00'; printf '{"contexts":{"deep":'; printf '[%.0s' $(seq 1 300); printf ']%.0s' $(seq 1 300); printf '}}'; } |
    seed FuzzSentryItem deep

find "$corpus" -type f | wc -l | xargs echo "seed files:"
