import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Issue 14, item 3: recordings play in bounded time and memory; long silences are shortened and marked.
@Suite(.timeLimit(.minutes(5)))
struct RecordingPlaybackTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    static func event(at date: Date, _ sequence: UInt64, kind: WireEvent.Kind = .error) -> WireEvent {
        var event = WireEvent(
            kind: kind, time: date, serviceName: "shop", source: "checkout", exceptionType: "Shop.Timeout",
            exceptionMessage: "POST /pay timed out", severity: .error, sequence: sequence)
        if kind == .metric {
            event.metricName = "queue.depth"
            event.metricValue = Double(sequence)
        }
        return event
    }

    /// Writes `events` to a new recording and returns its path (removed by the caller).
    static func recording(_ events: [WireEvent], bytes extra: [UInt8] = []) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID()).ndjson").path
        let encoder = WireEncoder()
        var bytes: [UInt8] = []
        for event in events { bytes += try encoder.encode(event) }
        try Data(bytes + extra).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theTimelineDividesBySpeedAndShortensLongSilences() {
        var timeline = PlaybackTimeline(speed: 2, maximumGap: .seconds(5))
        #expect(timeline.place(.zero) == .init(at: .zero, skipped: nil))
        #expect(timeline.place(.seconds(4)) == .init(at: .seconds(2), skipped: nil))
        #expect(timeline.place(.seconds(14)) == .init(at: .seconds(7), skipped: nil))  // exactly the limit: in full
        // A day at ×2 is 12 h of playback: played as 5 s, the recording's day minus the 10 s played is skipped.
        #expect(timeline.place(.seconds(86_414)) == .init(at: .seconds(12), skipped: .seconds(86_390)))
        #expect(timeline.place(.seconds(86_420)) == .init(at: .seconds(15), skipped: nil))
        #expect(timeline.skipped == .seconds(86_390) && timeline.compressedGaps == 1)

        var full = PlaybackTimeline(speed: 4, maximumGap: nil)
        #expect(full.place(.zero).at == .zero)
        #expect(full.place(.seconds(86_400)).at == .seconds(21_600))
        #expect(full.skipped == .zero)
    }

    /// On a manual clock: a one-day silence plays after exactly the 5 s limit, and the row and the Logs say so.
    @Test func aOneDaySilencePlaysAfterExactlyTheLimitAndIsMarked() async throws {
        let path = try Self.recording([
            Self.event(at: Self.start, 1), Self.event(at: Self.start + 1, 2), Self.event(at: Self.start + 86_401, 3),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try RecordingPlayer(path: path)
        #expect(player.startDate == Self.start)
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.start)
        let task = Task { await player.play(into: runtime.ingest, clock: runtime.clock) }
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(6))])
        #expect(runtime.ingest.statuses.first?.state == "playing · skipped 23h 59m")
        clock.advance(by: .seconds(5))
        await task.value
        let row = try #require(runtime.ingest.statuses.first)
        #expect(row.state == "finished · skipped 23h 59m")
        #expect(row.events == 3 && row.health == .idle)
        let logs = runtime.inbox.drain().flatMap { action -> [DashboardEvent] in
            if case .eventsReceived(let events) = action { return events }
            return []
        }
        let mark = try #require(logs.first { $0.message.hasPrefix("skipped") })
        #expect(
            mark.message
                == "skipped 23h 59m of silence in the recording: 2026-01-01 09:00:01.000 UTC → "
                + "2026-01-02 09:00:01.000 UTC (played as 5s)")
        #expect(mark.level == .notice && mark.source == "errorwatch.replay")
    }

    /// `render --from` of a recording with a silence from 1970 to 2100 finishes at once, shortened or not.
    @Test(arguments: [RecordingPlayer.defaultMaximumGap, nil])
    func aSilenceFrom1970To2100RendersAtOnce(maximumGap: Duration?) throws {
        let year2100 = Date(timeIntervalSince1970: 4_102_444_800)
        let path = try Self.recording([
            Self.event(at: Date(timeIntervalSince1970: 0), 1), Self.event(at: year2100, 2),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try RecordingPlayer(path: path, maximumGap: maximumGap)
        let measured = try player.measure()
        #expect(measured.playingTime == (maximumGap ?? .seconds(4_102_444_800)))
        // Unshortened, the run covers 130 years of the manual clock: stepping through it sample by sample (as it
        // once did, 36 s for a one-day silence) would never end, and the suite's time limit fails the test.
        let outcome = HeadlessRenderer(
            options: .init(width: 120, height: 40, duration: measured.playingTime + .seconds(1), recording: player)
        ).run()
        #expect(outcome.statistics.added == 2)
        let row = try #require(outcome.state.feeds.sources.first)
        #expect(row.events == 2 && row.state == (maximumGap == nil ? "finished" : "finished · skipped 47481d 23h"))
    }

    /// Jumping the manual clock over quiet time gives the screen stepping through every sample gives.
    @Test func jumpingOverQuietTimeChangesNothingOnScreen() throws {
        var events: [WireEvent] = []
        for second in 0..<20 {
            events.append(Self.event(at: Self.start + Double(second) * 0.5, UInt64(second)))
            events.append(Self.event(at: Self.start + Double(second) * 0.5, UInt64(second), kind: .metric))
        }
        events.append(Self.event(at: Self.start + 610, 99))
        events.append(Self.event(at: Self.start + 611, 100, kind: .metric))
        let path = try Self.recording(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try RecordingPlayer(path: path, maximumGap: nil)
        var options = HeadlessRenderer.Options(
            width: 120, height: 40, keys: [Key.character("l")], duration: .seconds(640), recording: player)
        let jumped = HeadlessRenderer(options: options).run()
        options.skipsQuietTime = false
        let stepped = HeadlessRenderer(options: options).run()
        #expect(jumped.screen.snapshotText() == stepped.screen.snapshotText())
        #expect(jumped.statistics.added == 21)
    }

    @Test func badLinesAnUnfinishedLastLineAndAnEmptyFileAreShownInTheSourcesRow() throws {
        let good = try WireEncoder().encode(Self.event(at: Self.start + 2, 7))
        let path = try Self.recording(
            [Self.event(at: Self.start, 1)], bytes: Array("{oops\nnot json either\n".utf8) + good.dropLast())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = HeadlessRenderer(
            options: .init(width: 120, height: 40, duration: .seconds(5), recording: try RecordingPlayer(path: path))
        ).run()
        let row = try #require(outcome.state.feeds.sources.first)
        #expect(row.events == 2 && row.badLines == 2 && row.state == "finished")

        let empty = try Self.recording([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let player = try RecordingPlayer(path: empty)
        #expect(player.startDate == nil)
        #expect(
            try player.measure()
                == .init(events: 0, badLines: 0, playingTime: .zero, skipped: .zero, compressedGaps: 0))
        let none = HeadlessRenderer(
            options: .init(width: 80, height: 24, duration: .seconds(1), recording: player)
        ).run()
        #expect(none.state.feeds.sources.first?.state == "finished")
    }

    @Test func aMissingRecordingIsOneSentence() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID()).ndjson").path
        do {
            _ = try RecordingPlayer(path: path)
            Issue.record("a missing recording was opened")
        } catch {
            #expect("\(error)" == "cannot read the recording \(path): no such file or directory")
        }
    }
}
