import ErrorStreaming

extension Palette {
    /// The style of a severity.
    public func style(for severity: ErrorSeverity) -> CellStyle {
        switch severity {
        case .debug: self[.severityDebug]
        case .info: self[.severityInfo]
        case .notice: self[.severityNotice]
        case .warning: self[.severityWarning]
        case .error: self[.severityError]
        case .critical: self[.severityCritical]
        }
    }

    /// The style of a category.
    public func style(for category: ErrorCategory) -> CellStyle {
        switch category {
        case .bug: self[.categoryBug]
        case .userActionable: self[.categoryUserActionable]
        case .transient: self[.categoryTransient]
        case .unrecoverable: self[.categoryUnrecoverable]
        case .expected: self[.categoryExpected]
        }
    }

    /// The style of a status's or a source's health.
    public func style(for health: StatusHealth) -> CellStyle {
        switch health {
        case .ok: self[.healthOk]
        case .degraded: self[.healthDegraded]
        case .failing: self[.healthFailing]
        case .idle: self[.healthIdle]
        }
    }
}

extension CellStyle {
    /// This style with `attributes` added.
    public func adding(_ attributes: CellAttributes) -> CellStyle {
        var copy = self
        copy.attributes.formUnion(attributes)
        return copy
    }

    /// This style's foreground on `other`'s background (for text drawn on a coloured bar).
    public func on(_ other: CellStyle) -> CellStyle {
        var copy = self
        copy.background = other.background
        return copy
    }
}

extension ErrorSeverity {
    /// The five-column tag of the Logs pane: `ERROR`, `WARN `, `CRIT `.
    var tag: String {
        switch self {
        case .debug: "DEBUG"
        case .info: "INFO "
        case .notice: "NOTE "
        case .warning: "WARN "
        case .error: "ERROR"
        case .critical: "CRIT "
        }
    }
}
