import Foundation

extension Theme {
    /// The built-in theme, used when no theme file is found and to fill roles a theme file leaves out.
    /// It equals `Themes/default.json` (`ThemeTests` checks); after editing that file, paste it below.
    public static let `default`: Theme = {
        do {
            return try ThemeLoader.parse(
                Data(defaultJSON.utf8), file: "<built-in default>", defaultName: "default", fallback: nil
            ).theme
        } catch {
            preconditionFailure("the built-in default theme does not parse: \(error)")
        }
    }()

    /// Every theme of `Themes/`, compiled in (``builtInFiles``), default first: an installed binary run from any
    /// folder can cycle all of them. A file that does not parse is left out (`ThemeTests` checks none is).
    public static let builtIn: [Theme] = {
        let parsed = builtInFiles.compactMap { file in
            try? ThemeLoader.parse(Data(file.json.utf8), file: "<built-in \(file.name)>", defaultName: file.name).theme
        }
        return [Theme.default] + parsed.filter { $0.name != Theme.default.name }
    }()

    /// The text of `Themes/default.json`, compiled in.
    static let defaultJSON = #"""
        {
          "$schema": "./theme.schema.json",
          "name": "default",
          "description": "Dark terminals: muted greys, cyan focus, warm severities.",
          "roles": {
            "text": { "fg": "default" },
            "muted": { "fg": 244 },
            "border": { "fg": 240 },
            "focusedBorder": { "fg": "cyan", "bold": true },
            "title": { "fg": "bright-white", "bold": true },
            "focusedTitle": { "fg": "black", "bg": "cyan", "bold": true },
            "header": { "fg": 252, "bg": 236 },
            "headerAccent": { "fg": "bright-cyan", "bg": 236, "bold": true },
            "footer": { "fg": 250, "bg": 236 },
            "footerKey": { "fg": "bright-yellow", "bg": 236, "bold": true },
            "status": { "fg": "bright-cyan", "bg": 236 },
            "paused": { "fg": "black", "bg": "yellow", "bold": true },
            "filter": { "fg": "bright-magenta", "bg": 236 },
            "selection": { "fg": "bright-white", "bg": 24 },
            "alert": { "fg": "bright-red", "bold": true },
            "sparkline": { "fg": "#5fd7ff" },
            "help": { "fg": "default", "bg": 235 },
            "severityDebug": { "fg": 244 },
            "severityInfo": { "fg": "#5f87d7" },
            "severityNotice": { "fg": "bright-cyan" },
            "severityWarning": { "fg": "#ffaf00" },
            "severityError": { "fg": "#ff5f5f", "bold": true },
            "severityCritical": { "fg": "bright-white", "bg": "red", "bold": true },
            "categoryBug": { "fg": 170 },
            "categoryUserActionable": { "fg": 214 },
            "categoryTransient": { "fg": 75 },
            "categoryUnrecoverable": { "fg": 203 },
            "categoryExpected": { "fg": 244 },
            "healthOk": { "fg": "bright-green" },
            "healthDegraded": { "fg": "yellow" },
            "healthFailing": { "fg": "bright-red", "bold": true },
            "healthIdle": { "fg": 244 }
          }
        }
        """#
}
