// A child process for crash tests: opens (or creates) a package document, edits it
// continuously with autosave on, and prints `SAVED <sequence>` after every
// completed autosave, until it is killed.
//
//     poddoc-crash-child DOCUMENT SEED AUTOSAVE_MILLISECONDS
import Foundation
import PodDocDocument
import PodDocStore

let arguments = CommandLine.arguments
guard arguments.count == 4, let seed = UInt64(arguments[2]), let milliseconds = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: poddoc-crash-child DOCUMENT SEED AUTOSAVE_MILLISECONDS\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
let title = Attribute<String>("title", default: "")
let body = Attribute<String?>("body")
let model = try ObjectModel(entities: [EntityDescription("Note", members: [title, body])])

struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@MainActor
func run() async throws {
    var options = ManagedDocument.OpenOptions()
    options.autosaveInterval = .milliseconds(milliseconds)
    let document = FileManager.default.fileExists(atPath: url.path)
        ? try await ManagedDocument.open(url, model: model, options: options)
        : try await ManagedDocument.create(at: url, kind: .outline, model: model, options: options)
    document.onAutosave = { event in
        if case let .saved(_, sequence, _) = event { say("SAVED \(sequence)") }
    }
    say("OPEN \(document.metadata.saveSequence) \(document.metadata.storeHash)")
    var random = Random(state: seed)
    let context = document.mainContext
    while true {
        for _ in 0..<(1 + random.next(20)) {
            switch random.next(10) {
            case 0..<6:
                let note = context.insert("Note")
                note[title] = "note \(random.next(1_000_000))"
                note[body] = String(repeating: "x", count: random.next(400))
            case 6..<8:
                if let note = try context.fetchFirst(FetchRequest("Note", offset: random.next(50))) { note[title] = "edited \(random.next(1000))" }
            default:
                if let note = try context.fetchFirst(FetchRequest("Note", offset: random.next(50))) { context.delete(note) }
            }
        }
        if random.next(8) == 0 {
            document.additionalContent = ["attachments/\(random.next(5)).txt": Data(String(repeating: "y", count: random.next(2000)).utf8)]
        }
        context.processPendingChanges()
        try await Task.sleep(for: .milliseconds(random.next(4)))
    }
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("poddoc-crash-child: \(error)\n".utf8))
    exit(1)
}
