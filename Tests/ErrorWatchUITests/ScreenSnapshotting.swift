import ErrorWatchUI
import SnapshotTesting

extension Snapshotting where Value == ScreenBuffer, Format == String {
    /// A screen as its text lines followed by the compact style table (see `ScreenBuffer.snapshotText()`),
    /// stored as `.txt`.
    static var screen: Snapshotting<ScreenBuffer, String> {
        Snapshotting<String, String>.lines.pullback { (buffer: ScreenBuffer) in
            buffer.snapshotText()
        }
    }
}
