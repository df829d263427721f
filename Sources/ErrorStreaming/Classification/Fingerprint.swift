/// How an error read from outside the process is grouped when its producer sent no grouping key of its own: the
/// one function behind the issues, the alerts and the store's keys, so that they always agree.
///
/// `TYPE#CODE#SOURCE#TEMPLATES`: the type name as sent, the code as sent (empty when none), the component that
/// reported it (the logger, `source`; empty when none), and the grouping form of the messages' templates
/// (``TemplateMask``), the line's own message first and ` | ` before the exception's when there are both. Stable
/// across runs and processes, so a store keys issues by it; the scheme is named by ``scheme``, and a store written
/// with another is migrated (docs/store.md).
///
/// ```swift
/// Fingerprint.make(typeName: "Error", code: nil, source: "shop.db", logMessage: nil,
///                  message: "db query timed out after 2669 ms (query id q-12f76)")
/// // "Error##shop.db#db query timed out after <num> ms (query id q-<num>)"
/// ```
public enum Fingerprint {
    /// The name of the way ``make(typeName:code:source:logMessage:message:)`` groups, recorded by a store.
    public static let scheme = "type-code-source-template/2"

    /// The fingerprint of an error of `typeName` and `code` reported by `source`, whose line said `logMessage`
    /// (when it had a sentence of its own) and whose exception said `message`.
    public static func make(
        typeName: String, code: String?, source: String?, logMessage: String?, message: String
    ) -> String {
        let template = TemplateMask.groupingKey(of: message)
        let messages = logMessage.map { TemplateMask.groupingKey(of: $0) + " | " + template } ?? template
        return typeName + "#" + (code ?? "") + "#" + (source ?? "") + "#" + messages
    }

    /// Whether `fingerprint` is one ``make(typeName:code:source:logMessage:message:)`` or an earlier scheme of it
    /// made for an error of `typeName` and `code` (rather than a producer's own key, or this process's
    /// `TYPE#CODE`): it starts with `TYPE#CODE#`.
    public static func isTemplateMade(_ fingerprint: String, typeName: String, code: String) -> Bool {
        fingerprint.hasPrefix(typeName + "#" + code + "#")
    }
}
