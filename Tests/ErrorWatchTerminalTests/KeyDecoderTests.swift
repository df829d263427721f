import CNCurses
import ErrorWatchUI
import Testing

@testable import ErrorWatchTerminal

struct KeyDecoderTests {
    @Test func printableCharactersKeepTheirCase() {
        #expect(KeyDecoder.character(UInt32(UInt8(ascii: "q"))) == .character("q"))
        #expect(KeyDecoder.character(UInt32(UInt8(ascii: "S"))) == .character("S"))
        #expect(KeyDecoder.character(0x20) == .character(" "))
        #expect(KeyDecoder.character(0x00E9) == .character("é"))
    }

    @Test func controlCharactersBecomeNamedKeys() {
        #expect(KeyDecoder.character(0x1B) == .escape)
        #expect(KeyDecoder.character(0x09) == .tab)
        #expect(KeyDecoder.character(0x0D) == .enter)
        #expect(KeyDecoder.character(0x7F) == .backspace)
        #expect(KeyDecoder.character(0x0C) == .ctrl("l"))
        #expect(KeyDecoder.character(0x1F) == nil)
    }

    @Test func functionKeysMapToKeys() {
        #expect(KeyDecoder.functionKey(KEY_UP) == .up)
        #expect(KeyDecoder.functionKey(KEY_NPAGE) == .pageDown)
        #expect(KeyDecoder.functionKey(KEY_BTAB) == .backTab)
        #expect(KeyDecoder.functionKey(ew_key_f(3)) == .function(3))
        #expect(KeyDecoder.functionKey(KEY_MOUSE) == nil)
    }

    @Test func pollTimeoutsRoundUpToWholeMilliseconds() {
        #expect(NCursesBackend.milliseconds(.zero) == 0)
        #expect(NCursesBackend.milliseconds(.microseconds(1)) == 1)
        #expect(NCursesBackend.milliseconds(.milliseconds(33)) == 33)
        #expect(NCursesBackend.milliseconds(.seconds(-1)) == 0)
        #expect(NCursesBackend.milliseconds(.seconds(1_000_000_000)) == Int32.max)
    }

    @Test func coloursFitTheTerminalsPalette() {
        #expect(ColorPairCache.index(.default, depth: .colors256) == -1)
        #expect(ColorPairCache.index(.indexed(200), depth: .colors256) == 200)
        #expect(ColorPairCache.index(.indexed(12), depth: .colors8) == 4)
        #expect(ColorPairCache.index(.rgb(255, 0, 0), depth: .colors256) == 196)
        #expect(ColorPairCache.index(.rgb(255, 255, 255), depth: .colors16) == 15)
        #expect(ColorPairCache.index(.indexed(3), depth: .monochrome) == -1)
    }

    @Test func altChordsAreDroppedNotTakenAsEscapeThenKey() {
        var inputs: [TerminalInput] = [.key(.escape), .key(.character("q")), .key(.character("j"))]
        NCursesBackend.dropAltChords(&inputs)
        #expect(inputs == [.key(.character("j"))])
        var lone: [TerminalInput] = [.key(.character("/")), .key(.escape)]
        NCursesBackend.dropAltChords(&lone)
        #expect(lone == [.key(.character("/")), .key(.escape)])
        var arrows: [TerminalInput] = [.key(.escape), .key(.up)]
        NCursesBackend.dropAltChords(&arrows)
        #expect(arrows == [.key(.escape), .key(.up)])
    }
}
