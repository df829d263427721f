extension DashboardStore {
    /// Who carries out what the reducer asks for. The loop that owns the screen ends the session and repaints;
    /// everything that reaches beyond the dashboard (an attached app's command, an export, triage) goes to the
    /// runtime. The terminal loop and the headless renderer both send actions through ``send(_:to:)``, so a new
    /// effect is routed once, here, for both.
    public struct EffectHandlers {
        /// Ends the session (`q`).
        public var quit: () -> Void
        /// Repaints every cell (Ctrl-L).
        public var redrawAll: () -> Void
        /// Performs an effect outside the dashboard: `.appCommand`, `.export` or `.triage`.
        public var perform: (DashboardEffect) -> Void

        /// - Parameters:
        ///   - quit: ends the session.
        ///   - redrawAll: repaints every cell; a renderer without a screen to repaint ignores it.
        ///   - perform: the runtime's ``DashboardEffect`` performer, for the effects beyond the dashboard.
        public init(
            quit: @escaping () -> Void, redrawAll: @escaping () -> Void = {},
            perform: @escaping (DashboardEffect) -> Void
        ) {
            self.quit = quit
            self.redrawAll = redrawAll
            self.perform = perform
        }
    }

    /// Reduces `action` into the state and hands each effect it asks for to the one who carries it out.
    public mutating func send(_ action: DashboardAction, to handlers: EffectHandlers) {
        for effect in send(action) {
            switch effect {
            case .quit: handlers.quit()
            case .redrawAll: handlers.redrawAll()
            case .appCommand, .export, .triage, .traceOpened, .metricOpened: handlers.perform(effect)
            }
        }
    }
}
