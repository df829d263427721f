/// The one shape of every pane and view (ratatui's `Widget::render(area, buf)`): what it draws comes in as one
/// value, a ``WidgetInput`` holding its ``Part`` of the state with the filters, the screen and the palette, and it
/// draws into an area of a buffer, clearing the area first and touching nothing outside it.
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
    static func render(_ input: WidgetInput<Part>, in area: Rect, into buffer: inout ScreenBuffer)
}

extension Widget {
    /// The widget's input in `state`, drawn with `palette`.
    public static func input(_ state: DashboardState, palette: Palette) -> WidgetInput<Part> {
        WidgetInput(part: part(of: state), filter: state.filter, screen: state.screen, palette: palette)
    }

    /// Draws this widget's part of `state` into `area` of `buffer`.
    static func render(_ state: DashboardState, palette: Palette, in area: Rect, into buffer: inout ScreenBuffer) {
        render(input(state, palette: palette), in: area, into: &buffer)
    }
}

/// What a widget draws: its part of the state, with the filters in force (what is listed and highlighted), the
/// screen (size, clock, glyphs, focus) and the palette.
public struct WidgetInput<Part: Sendable>: Sendable {
    /// The widget's slice (or slices) of the state.
    public let part: Part
    /// The type filter and the query.
    public let filter: FilterState
    /// The screen drawn on.
    public let screen: ScreenState
    /// The theme fitted to the screen's colours.
    public let palette: Palette
}
