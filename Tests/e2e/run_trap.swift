// The Swift child of Tests/e2e/run.sh: prints a line to stdout (held in stdio's buffer unless stdout is a terminal),
// then traps; the runtime prints `Fatal error:` and its backtrace on stderr.
func divide(_ total: Int, among people: Int) -> Int {
    guard people > 0 else { fatalError("cannot split \(total) among \(people) people") }
    return total / people
}

print("splitting the bill")
let people = CommandLine.arguments.count - 1
print(divide(120, among: people))
