import Foundation
import Testing

@testable import ErrorStreaming

/// The message template behind default fingerprints: masked parts vary freely, everything else is kept.
struct TemplateMaskTests {
    @Test(arguments: [
        ("row 12 changed on both sides", "row <num> changed on both sides"),
        ("dial tcp 10.0.0.9:6379: connection refused", "dial tcp <ip>: connection refused"),
        ("KeyError: 'sku-42'", "KeyError: <str>"),
        (#"user "alice smith" not found"#, "user <str> not found"),
        ("request 3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f timed out", "request <uuid> timed out"),
        ("object 0x7ffee4b2 freed twice", "object <hex> freed twice"),
        ("commit 9fceb02d0ae598e95dc970b74767f19372d61af8 missing", "commit <hex> missing"),
        ("open /var/log/app/7.log: permission denied", "open <path>: permission denied"),
        ("mail to bob@example.com bounced", "mail to <email> bounced"),
        ("GET https://api.example.com/v2/orders/17 returned 503", "GET <path> returned <num>"),
        ("connect to fe80::1ff:fe23:4567:890a failed", "connect to <ip> failed"),
        ("took 12ms, limit 10.5s", "took <num>ms, limit <num>s"),
        ("order_id=4711 failed", "order_id=<num> failed"),
        ("utf8 decoding of v2 payload failed", "utf8 decoding of v2 payload failed"),
        // Issue 32: ids inside words, commit hashes, pod names, short-prefixed numbers; words with digits stay.
        ("db query timed out after 2669 ms (query id q-12f76)", "db query timed out after <num> ms (query id q-<hex>)"),
        ("job req_7f3a9c failed", "job <id> failed"),
        ("deployed a1b2c3d to web-7f9c8d-x2k4p", "deployed <hex> to web-<hex>-<id>"),
        ("token for user u640 expired", "token for user u<num> expired"),
        ("sha256 of utf16 x86_64 win32 md5sum differs", "sha256 of utf16 x86_64 win32 md5sum differs"),
        ("took 12.5MB and 300ms, 1,234 rows", "took <num>MB and <num>ms, <num> rows"),
        ("connect 10.1.2.3:5432 failed", "connect <ip> failed"),
        ("object 0x1f freed", "object <hex> freed"),
        ("lease job-3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f lost", "lease job-<hex>-<hex>-<hex>-<hex>-<hex> lost"),
        ("  spaced    out  ", "spaced out"),
        ("first line 1\nsecond line 2", "first line <num>"),
        ("", ""),
    ])
    func masks(_ input: String, _ expected: String) {
        #expect(TemplateMask.template(of: input) == expected)
    }

    /// Random skeletons with random masked parts: the same skeleton always gives the same template, whatever the
    /// masked values; a different skeleton word gives a different template.
    @Test func propertySameTemplateOnlyForTheSameSkeleton() {
        var random = SeededGenerator(seed: 24)
        let words = ["connect", "failed", "row", "changed", "user", "timeout", "cache", "disk", "full", "sync", "lost"]
        func variable(_ kind: Int) -> String {
            switch kind {
            case 0: "\(Int.random(in: 0...1_000_000, using: &random))"
            case 1: "10.\(Int.random(in: 0...255, using: &random)).0.\(Int.random(in: 1...254, using: &random)):\(Int.random(in: 1...65535, using: &random))"
            case 2: "'\(words.randomElement(using: &random)!)-\(Int.random(in: 0...99, using: &random))'"
            case 3: "/srv/\(words.randomElement(using: &random)!)/\(Int.random(in: 0...99, using: &random)).log"
            case 4: String(format: "0x%08x", UInt32.random(in: 0...UInt32.max, using: &random))
            default: "\(words.randomElement(using: &random)!)@example.org"
            }
        }
        for _ in 0..<2_000 {
            let length = Int.random(in: 2...8, using: &random)
            var skeleton: [Int?] = (0..<length).map { _ in
                Bool.random(using: &random) ? nil : Int.random(in: 0..<words.count, using: &random)
            }
            if skeleton.allSatisfy({ $0 == nil }) { skeleton[0] = 0 }
            let kinds = skeleton.map { _ in Int.random(in: 0...5, using: &random) }
            func line(_ skeleton: [Int?]) -> String {
                zip(skeleton, kinds).map { word, kind in word.map { words[$0] } ?? variable(kind) }
                    .joined(separator: " ")
            }
            let a = line(skeleton)
            let b = line(skeleton)
            #expect(TemplateMask.template(of: a) == TemplateMask.template(of: b), "\(a) | \(b)")
            // Change one skeleton word to another: a different template.
            let position = skeleton.firstIndex { $0 != nil }!
            var other = skeleton
            other[position] = (skeleton[position]! + 1) % words.count
            let c = line(other)
            #expect(TemplateMask.template(of: a) != TemplateMask.template(of: c), "\(a) | \(c)")
        }
    }

    /// The grouping form reads a hex id and a number alike, so an id that happens to hold only digits groups with
    /// the others (`q-12345` beside `q-12f76`).
    @Test func groupingReadsHexAndNumbersAlike() {
        #expect(TemplateMask.groupingKey(of: "query q-12345 failed") == TemplateMask.groupingKey(of: "query q-12f76 failed"))
        #expect(TemplateMask.template(of: "query q-12345 failed") == "query q-<num> failed")
        #expect(TemplateMask.template(of: "query q-12f76 failed") == "query q-<hex> failed")
    }

    @Test func onlyTheFirstKilobyteOfTheFirstLineIsRead() {
        let long = String(repeating: "word ", count: 1_000)
        #expect(TemplateMask.template(of: long).utf8.count <= TemplateMask.maximumBytes)
        // Never cut inside a character.
        let wide = String(repeating: "é", count: 2_000)
        #expect(TemplateMask.template(of: wide).unicodeScalars.allSatisfy { $0 == "é" })
    }

    /// A kilobyte of the tokens whose placeholders are longest beside what they stand for (a digit is five times
    /// longer masked): the template, written into a buffer sized for the longest possible, is made whole.
    @Test(arguments: [
        ("1 ", "<num> "), ("1-", "<num>-"), ("\"\" ", "<str> "), ("/x ", "<path> "), ("(1) ", "(<num>) "),
        ("x=1 ", "x=<num> "),
    ])
    func theLongestTemplatesAreMadeWhole(_ token: String, _ masked: String) {
        #expect(TemplateMask.template(of: "1") == "<num>")
        let count = TemplateMask.maximumBytes / token.utf8.count
        let template = TemplateMask.template(of: String(repeating: token, count: count))
        let expected = String(repeating: masked, count: count)
        #expect(template == (expected.hasSuffix(" ") ? String(expected.dropLast()) : expected))
    }
}

/// `groupingKey(ofTemplate:)` reads ASCII templates as bytes: the same keys as the character search it stands for.
struct GroupingKeyTests {
    @Test(arguments: [
        "", "<hex>", "<hex><hex>", "a <hex> b <hex> c", "<he", "<hex", "x<hex>y", "<num> <hex>:<hex>/<id>", "<<hex>>",
        "no placeholder at all", "é <hex> ü", "漢字 <hex>", "<hex>\u{301}", "\u{600}<hex>", "tab\t<hex>",
    ])
    func keysAreTheCharacterSearchs(_ template: String) {
        let expected = template.contains("<hex>") ? template.replacing("<hex>", with: "<num>") : template
        #expect(TemplateMask.groupingKey(ofTemplate: template) == expected)
    }
}
