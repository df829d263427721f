/// What the Logs pane says while nothing has arrived and receivers listen: each receiver and the setting that points
/// an SDK at it (its address), one line each, so that it can be copied whole (a line that does not fit wraps under
/// its own).
///
/// ```text
/// Waiting for events. Send here:
/// OTLP/HTTP  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
/// Sentry     SENTRY_SPOTLIGHT=http://127.0.0.1:8969/stream (or a DSN: http://key@127.0.0.1:8969/1)
/// ```
enum WhereToSend {
    static func draw(_ receivers: [ReceiverAddress], in inner: Rect, into buffer: inout ScreenBuffer, palette: Palette) {
        var y = inner.y
        let x = inner.x + 1
        let width = max(1, inner.width - 1)
        func line(_ text: String, _ role: ThemeRole) {
            for part in DetailView.wrap(text, width: width) where y < inner.y + inner.height {
                buffer.write(part, x: x, y: y, width: width, style: palette[role])
                y += 1
            }
        }
        line("Waiting for events. Send here:", .muted)
        let kindWidth = min(10, receivers.map { DisplayWidth.of($0.kind) }.max() ?? 0)
        for receiver in receivers {
            let pad = String(repeating: " ", count: max(0, kindWidth - DisplayWidth.of(receiver.kind)))
            line(receiver.kind + pad + "  " + receiver.setting, .text)
        }
    }
}
