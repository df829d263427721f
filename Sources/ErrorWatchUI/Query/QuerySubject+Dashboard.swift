import Foundation

extension DashboardEvent {
    /// What a query looks at in a Logs line.
    public var querySubject: QuerySubject {
        var subject = QuerySubject(
            level: level, type: typeName, qualifiedType: qualifiedTypeName.isEmpty ? nil : qualifiedTypeName,
            code: shownCode, service: service, source: source, origin: kind == .error ? origin : nil,
            category: category, texts: [message] + [logMessage, userMessage].compactMap { $0 })
        subject.traceID = traceID?.lowercased()
        return subject
    }
}

extension AlertRecord {
    /// What a query looks at in an alert: what users were told is its text.
    public var querySubject: QuerySubject {
        QuerySubject(
            level: severity, type: typeName, code: shownCode.isEmpty ? nil : shownCode,
            service: services.isEmpty ? nil : services.joined(separator: " "), source: source, origin: origin,
            category: category, texts: [title])
    }
}

extension IssueRecord {
    /// What a query looks at in an issue: its latest message is its text; `service:` matches any of its services.
    /// `now` decides whether it is new, `latestVersion` whether `version:latest` holds.
    public func querySubject(at now: Date, latestVersion: String? = nil) -> QuerySubject {
        var subject = QuerySubject(
            level: severity, type: typeName, qualifiedType: qualifiedTypeName, code: shownCode.isEmpty ? nil : shownCode,
            service: services.joined(separator: " "), source: "", origin: userCount > 0 ? .user : .background,
            category: category, texts: latestWords.map { [$0] } ?? [])
        subject.issueStatus = triage.status
        subject.isNew = triage.isNew(firstSeen: firstSeen, at: now)
        subject.versions = versions.map(\.version)
        subject.hasLatestVersion = latestVersion.map { latest in versions.contains { $0.version == latest } } ?? false
        subject.environments = environments
        return subject
    }
}

extension PatternRecord {
    /// What a query looks at in a template: its words are its text; `level:` its level, `service:` and `source:`
    /// any of the services and components whose lines it has.
    public var querySubject: QuerySubject {
        QuerySubject(
            level: levelsSeen.first, service: services.isEmpty ? nil : services.joined(separator: " "),
            source: sources.joined(separator: " "), texts: [template])
    }
}

extension TraceSummary {
    /// What a query looks at in a trace: its span names are its text, `service:` any of its services, `trace:` its
    /// id; `status:` whether a span failed, `duration` its duration.
    public var querySubject: QuerySubject {
        var subject = QuerySubject(
            service: services.isEmpty ? nil : services.joined(separator: " "),
            texts: (rootName.map { [$0] } ?? []) + spanNames)
        subject.traceID = traceID
        subject.isTrace = true
        subject.traceFailed = failed
        subject.durationNanos = durationNanos
        return subject
    }
}
