import ErrorStreaming

/// A frame of a reported stack trace as the detail view lists it: which exception of the chain it belongs to, and
/// the frame.
struct ListedFrame {
    var exception: Int
    var frame: ExceptionReport.Frame

    /// The frames listed for `report`, the failing call first in each exception: every frame when `library` is set
    /// or when an exception has none of the app's own, else the app's own (`in_app`) frames only.
    static func frames(of report: ExceptionReport, library: Bool) -> [ListedFrame] {
        var listed: [ListedFrame] = []
        for (index, exception) in report.exceptions.enumerated() {
            let ownCode = exception.frames.contains { $0.inApp == true }
            for frame in exception.frames.reversed() where library || !ownCode || frame.inApp == true {
                listed.append(ListedFrame(exception: index, frame: frame))
            }
        }
        return listed
    }
}
