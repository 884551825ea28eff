import ArgumentParser

/// `--json`: print data as JSON in the shape docs/CLI.md documents; `-q`/`--quiet`: no
/// progress.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON (shapes in docs/CLI.md).")
    var json = false

    @Flag(
        name: .shortAndLong,
        help: "Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.")
    var quiet = false

    var output: Output { Output(json: json) }

    mutating func validate() throws {
        if quiet { Progress.silenced.store(true, ordering: .relaxed) }
    }
}
