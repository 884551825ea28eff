/// How the shell reads a line: commands separated by `;`, words separated by blanks;
/// `"…"` and `'…'` quote (a `;` or blank inside is kept), `\` keeps the next character
/// (outside single quotes). `#` at the start of a word starts a comment.
enum ShellSyntax {
    /// The commands of a line, each as its words; empty commands are left out.
    ///
    /// - Throws: ``CommandFailure`` (usage) for an unclosed quote or a trailing `\`.
    static func commands(in line: String) throws -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == ";" {
                endCommand()
            } else if character == "#" && !inWord {
                break
            } else if character.isWhitespace {
                endWord()
            } else {
                word.append(character)
                inWord = true
            }
        }
        if quote != nil || escaped {
            throw CommandFailure(
                .usage, code: "usage",
                quote != nil
                    ? "A quote (\(quote!)) is not closed; close it at the end of the words it holds."
                    : "The line ends with a lone \\; write \\\\ for a backslash.")
        }
        endCommand()
        return commands
    }
}
