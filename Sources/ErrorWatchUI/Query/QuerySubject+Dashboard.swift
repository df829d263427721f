extension DashboardEvent {
    /// What a query looks at in a Logs line.
    public var querySubject: QuerySubject {
        QuerySubject(
            level: level, type: typeName, qualifiedType: qualifiedTypeName.isEmpty ? nil : qualifiedTypeName,
            code: shownCode, service: service, source: source, origin: kind == .error ? origin : nil,
            category: category, texts: [message] + [logMessage, userMessage].compactMap { $0 })
    }
}

extension AlertRecord {
    /// What a query looks at in an alert: what users were told is its text.
    public var querySubject: QuerySubject {
        QuerySubject(
            level: severity, type: typeName, code: shownCode.isEmpty ? nil : shownCode, source: source, origin: origin,
            category: category, texts: [title])
    }
}

extension IssueRecord {
    /// What a query looks at in an issue: its latest message is its text; `service:` matches any of its services.
    public var querySubject: QuerySubject {
        QuerySubject(
            level: severity, type: typeName, qualifiedType: qualifiedTypeName, code: shownCode.isEmpty ? nil : shownCode,
            service: services.joined(separator: " "), source: "", origin: userCount > 0 ? .user : .background,
            category: category, texts: recent.first.map { [$0.message] } ?? [])
    }
}
