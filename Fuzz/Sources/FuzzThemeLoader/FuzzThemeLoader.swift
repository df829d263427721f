import ErrorWatchUI
import Foundation

/// One input is a theme file's contents, parsed by `ThemeParser.parse` (Foundation's JSONSerialization, then
/// roles, colours and attributes). It may throw a `ThemeError`; it must not crash, and every problem must have a
/// description (the message printed after exit).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let contents = Data(bytes: data, count: size)
    do {
        let loaded = try ThemeParser.parse(contents, file: "fuzz.json")
        for problem in loaded.problems { _ = problem.description }
        _ = loaded.theme.name
    } catch {
        _ = error.description
    }
    return 0
}
