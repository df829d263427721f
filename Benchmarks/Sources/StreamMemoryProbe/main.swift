// Peak resident memory of a plain process (no benchmark harness) that broadcasts 1M errors to 16 listeners
// under `.bufferingNewest(1024)`. Linux only: reads VmHWM (peak RSS) and VmRSS from /proc/self/status.
//
//     swift run -c release StreamMemoryProbe

import ErrorStreaming
import Foundation

struct ProbeError: Error {
    let code: Int
}

/// A `/proc/self/status` field in kilobytes ("VmHWM", "VmRSS"), or -1 where there is no such file.
func statusKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

/// Runs the scenario and returns the deliveries and the stream's statistics.
nonisolated func broadcast(errors: Int, listeners: Int) async -> (delivered: Int, stats: ErrorStream.Statistics) {
    let stream = ErrorStream()
    let sequences = (0..<listeners).map { _ in stream.updates(bufferingPolicy: .bufferingNewest(1024)) }
    let delivered = await withTaskGroup(of: Int.self) { group in
        for updates in sequences {
            group.addTask {
                var count = 0
                for await _ in updates { count += 1 }
                return count
            }
        }
        for code in 0..<errors { stream.add(ProbeError(code: code)) }
        stream.finish()
        return await group.reduce(0, +)
    }
    return (delivered, stream.statistics)
}

// Peak RSS of the process before it has done anything (runtime and Foundation loaded), then after a small
// warm-up round that pages in the code and runtime structures every round uses (Date, tasks, threads).
let coldPeak = statusKilobytes("VmHWM")
_ = await broadcast(errors: 3_000, listeners: 16)
let idlePeak = statusKilobytes("VmHWM")
let start = ContinuousClock.now
let result = await broadcast(errors: 1_000_000, listeners: 16)
let elapsed = ContinuousClock.now - start
let peak = statusKilobytes("VmHWM")
print("errors added:            \(result.stats.added)")
print("deliveries:              \(result.delivered) (dropped \(result.stats.dropped))")
print("elapsed:                 \(elapsed)")
print("peak RSS at start:       \(coldPeak) KB")
print("peak RSS after warm-up:  \(idlePeak) KB")
print("peak RSS after:          \(peak) KB")
print("increase over warm-up:   \(peak - idlePeak) KB")
