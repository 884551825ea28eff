import Foundation

/// A fresh scratch folder under the system temporary folder (the caller removes it).
public func scratchFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "poddoc-bench-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
