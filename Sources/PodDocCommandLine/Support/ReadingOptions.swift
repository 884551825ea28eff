import ArgumentParser

/// `--read-only` on a command that only reads (`info`, `check`, `versions`, `diff`): accepted,
/// as docs/CLI.md promises for every reading command, and changes nothing, since such a
/// command always opens the document read-only, without a lock.
struct ReadingOptions: ParsableArguments {
    @Flag(
        name: .customLong("read-only"),
        help: "Accepted for symmetry with `open --read-only`: this command always opens the document read-only, without a lock.")
    var readOnly = false
}
