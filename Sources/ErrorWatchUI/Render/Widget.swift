/// The one shape of every pane and view (ratatui's `Widget::render(area, buf)`): what it draws comes in as one
/// value, a ``WidgetInput`` from which it reads its ``Part`` of the state, the filters, the screen and the palette,
/// and it draws into an area of a buffer, clearing the area first and touching nothing outside it.
/// ``Dashboard/render(_:)`` lays the screen out and hands each widget its input and its area.
///
/// ```swift
/// var buffer = ScreenBuffer(width: 100, height: 12)
/// LogsPane.render(LogsPane.input(state, palette: palette), in: buffer.area, into: &buffer)
/// ```
public protocol Widget {
    /// The slice (or slices) of the state the widget draws.
    associatedtype Part: Sendable
    /// The widget's part of `state`.
    static func part(of state: DashboardState) -> Part
    /// Draws `input` into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    static func render(_ input: WidgetInput<Self>, in area: Rect, into buffer: inout ScreenBuffer)
}

extension Widget {
    /// The widget's input in `state`, drawn with `palette`.
    public static func input(_ state: DashboardState, palette: Palette) -> WidgetInput<Self> {
        WidgetInput(frame: WidgetFrame(state: state, palette: palette))
    }

    /// Draws this widget's part of `state` into `area` of `buffer`.
    static func render(_ state: DashboardState, palette: Palette, in area: Rect, into buffer: inout ScreenBuffer) {
        render(input(state, palette: palette), in: area, into: &buffer)
    }
}

/// What widget `W` draws: its part of the state, with the filters in force (what is listed and highlighted), the
/// screen (size, clock, glyphs, focus) and the palette.
///
/// Every widget of a frame reads from one shared ``WidgetFrame``: an input is one reference, and a widget's part is
/// read when it asks for it. Inputs that each held a copy of their slices made every widget of every frame retain
/// and release each reference in them, through generic value witnesses: about a tenth of a frame's time (see
/// docs/benchmarks-render.md).
public struct WidgetInput<W: Widget>: Sendable {
    /// The frame being drawn.
    let frame: WidgetFrame

    /// The widget's slice (or slices) of the state.
    public var part: W.Part { W.part(of: frame.state) }
    /// The type filter and the query.
    public var filter: FilterState { frame.state.filter }
    /// The screen drawn on.
    public var screen: ScreenState { frame.state.screen }
    /// The theme fitted to the screen's colours.
    public var palette: Palette { frame.palette }

    /// The same frame's input for widget `Other`: a view drawn inside a pane.
    func handed<Other: Widget>(to _: Other.Type) -> WidgetInput<Other> { WidgetInput<Other>(frame: frame) }
}

/// One frame's state and palette, shared by the inputs of all its widgets.
final class WidgetFrame: Sendable {
    let state: DashboardState
    let palette: Palette

    init(state: DashboardState, palette: Palette) {
        self.state = state
        self.palette = palette
    }
}
