import ErrorWatchRuntime
import ErrorWatchUI
import Testing

/// The short type names shown in the panes and counted by type, read by bytes.
struct ShortTypeNameTests {
    @Test(arguments: [
        ("ErrorWatchDemo.AuthError", "AuthError"),
        ("Swift.DecodingError", "DecodingError"),
        ("OrderError", "OrderError"),
        ("App.Box<Other.Thing>", "Box<Other.Thing>"),
        ("Result<Swift.Int, App.Failure>", "Result<Swift.Int, App.Failure>"),
        ("Módulo.Érreur", "Érreur"),
        ("App.Outer.Inner", "Inner"),
        ("trailing.", ""),
        ("", ""),
    ])
    func theLastComponentBeforeAnyGenericArguments(qualified: String, short: String) {
        #expect(DashboardEvent.shortTypeName(qualified) == short)
    }
}
