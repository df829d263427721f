/// What a binding does: a dashboard command, or a command of an attached app.
public enum KeyCommand: Sendable, Hashable {
    case dashboard(DashboardCommand)
    case app(AppCommand)
}
