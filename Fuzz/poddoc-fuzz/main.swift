// poddoc-fuzz: runs the fuzz targets of PodDocReliability (every reader of outside input)
// for a bounded time each, and fails on any crash, hang or unclean error.
//
//     poddoc-fuzz [TARGET...] [--seconds N] [--seed N] [--fixtures DIR] [--json FILE] [--replay N]
//
// `make fuzz` runs every target for 15 s (CI); `make fuzz FUZZ_SECONDS=600` runs longer.
import Foundation
import PodDocReliability

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("poddoc-fuzz: \(message)\n".utf8))
    exit(2)
}

/// `value`, or a usage error when it is nil.
func required<T>(_ value: T?, _ message: @autoclosure () -> String) -> T {
    guard let value else { fail(message()) }
    return value
}

var names: [String] = []
var options = Fuzzer.Options(fixtures: URL(fileURLWithPath: "Tests/Fixtures"))
var jsonFile: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func value() -> String { required(arguments.popFirst(), "\(argument) needs a value") }
    switch argument {
    case "--seconds": options.duration = .seconds(required(Double(value()), "--seconds takes a number"))
    case "--seed": options.seed = required(UInt64(value()), "--seed takes a whole number")
    case "--fixtures": options.fixtures = URL(fileURLWithPath: value())
    case "--json": jsonFile = value()
    case "--replay": options.replay = required(Int(value()), "--replay takes an input number")
    case let name where !name.hasPrefix("-"): names.append(name)
    default: fail("unknown option \(argument). Targets: \(FuzzTarget.all.map(\.name).joined(separator: " "))")
    }
}
let targets =
    names.isEmpty
    ? FuzzTarget.all
    : names.map { required(FuzzTarget.named($0), "no target '\($0)'; targets: \(FuzzTarget.all.map(\.name).joined(separator: " "))") }

var results: [Fuzzer.Result] = []
for target in targets {
    do {
        let result = try Fuzzer.run(target, options: options)
        results.append(result)
        print(
            target.name.padding(toLength: 13, withPad: " ", startingAt: 0)
                + String(
                    format: " %9d inputs  %7.0f/s  %5.1f%% refused  %d findings", result.executions,
                    Double(result.executions) / max(result.seconds, 0.001),
                    100 * Double(result.refused) / Double(max(result.executions, 1)), result.findings.count))
        for finding in result.findings.prefix(5) { print("  ! \(finding)") }
    } catch {
        fail("could not run \(target.name): \(error)")
    }
}
if let jsonFile {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(results).write(to: URL(fileURLWithPath: jsonFile))
    } catch {
        fail("could not write \(jsonFile): \(error)")
    }
}
exit(results.allSatisfy { $0.findings.isEmpty } ? 0 : 1)
