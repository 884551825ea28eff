import Foundation
import PodDocDocument
import PodDocStore

/// The document of the document benchmarks: notes with a title and a body, opened with autosave
/// off and working copies under the benchmark's folder.
public enum DocumentBenchmarks {
    /// A note's title.
    public static let title = Attribute<String>("title", default: "")
    /// A note's body.
    public static let body = Attribute<String?>("body")

    /// The model: one entity, `Note`.
    public static func model() throws -> ObjectModel {
        try ObjectModel(entities: [EntityDescription("Note", members: [title, body])])
    }

    /// Autosave off; state (working copies) under `folder`.
    public static func options(_ folder: URL) -> ManagedDocument.OpenOptions {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        options.environment = ["XDG_STATE_HOME": folder.appending(path: "state").path, "HOME": folder.path]
        return options
    }
}
