import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

struct LineFramerTests {
    @Test func splitsLinesAcrossFeedsAndSkipsEmptyOnes() {
        var framer = LineFramer()
        #expect(framer.feed(Array("ab\n\ncd".utf8)) == [.success(Array("ab".utf8))])
        #expect(framer.pendingByteCount == 2)
        #expect(framer.feed(Array("e\nf\n".utf8)) == [.success(Array("cde".utf8)), .success(Array("f".utf8))])
        #expect(!framer.hasPartialLine)
    }

    @Test func overlongLineIsReportedOnceAndSkippedWithoutBuffering() {
        var framer = LineFramer(maximumLineBytes: 8)
        #expect(framer.feed(Array("1234567\n".utf8)) == [.success(Array("1234567".utf8))])
        #expect(framer.feed(Array("12345".utf8)).isEmpty)
        #expect(framer.feed(Array("678".utf8)) == [.failure(.lineTooLong(byteCount: 8))])
        #expect(framer.pendingByteCount == 0)
        #expect(framer.feed(Array("99999999999".utf8)).isEmpty)
        #expect(framer.feed(Array("9\nok\n".utf8)) == [.success(Array("ok".utf8))])
    }

    @Test func lineOfExactlyTheLimitIncludingNewlineIsAccepted() {
        var framer = LineFramer(maximumLineBytes: 4)
        #expect(
            framer.feed(Array("abc\nabcd\nx\n".utf8)) == [
                .success(Array("abc".utf8)), .failure(.lineTooLong(byteCount: 5)), .success(Array("x".utf8)),
            ])
    }

    @Test func finishReturnsTheUnterminatedLastLine() {
        var framer = LineFramer()
        _ = framer.feed(Array("a\nbc".utf8))
        #expect(framer.finish() == .success(Array("bc".utf8)))
        #expect(framer.finish() == nil)
    }

    @Test func crlfLinesDecodeAndCarriageReturnIsLeftForTheDecoder() throws {
        var framer = LineFramer()
        let frames = framer.feed(goodLine().dropLast() + Array("\r\n".utf8))
        let line = try #require(try frames.first?.get())
        #expect(line.last == UInt8(ascii: "\r"))
        #expect(try WireDecoder().decode(line).exceptionType == "Shop.Failure")
    }

    @Test func resetForgetsAPartialLine() {
        var framer = LineFramer()
        _ = framer.feed(Array("partial".utf8))
        let hadPartial = framer.reset()
        #expect(hadPartial)
        #expect(framer.feed(Array("next\n".utf8)) == [.success(Array("next".utf8))])
        let hadAnother = framer.reset()
        #expect(!hadAnother)
    }
}
