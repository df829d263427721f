import CNCurses
import ErrorWatchUI

/// Turns what `wget_wch` returns into ``Key``s.
enum KeyDecoder {
    /// A function-key code (status `KEY_CODE_YES`); `nil` for codes the dashboard does not use.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        default:
            let f1 = ew_key_f(1)
            if code >= f1, code < f1 + 12 { return .function(Int(code - f1) + 1) }
            return nil
        }
    }

    /// A character code (status `OK`).
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(value + 0x60)!))
        case 0x00, 0x1C...0x1F: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
