import ArgumentParser

/// `--json`: print data as JSON in the shape docs/CLI.md documents.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON (shapes in docs/CLI.md).")
    var json = false

    var output: Output { Output(json: json) }
}
