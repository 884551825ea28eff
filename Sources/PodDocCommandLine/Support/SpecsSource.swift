import Foundation
import PodSpecs

/// Where specs come from: a specs web service, a `Specs/` folder, or a page file.
enum SpecsSource: CustomStringConvertible {
    /// A service answering `GET …/specs?page=N`.
    case service(SpecsServiceConfiguration)
    /// A CocoaPods `Specs/` folder.
    case folder(SpecsFolder)
    /// A page file (`{"number_of_pages": 1, "result": [...]}`) or one spec file.
    case pageFile(SpecsPageFile)

    /// Reads what the user wrote: an `http(s)://` URL, a folder, or a file.
    ///
    /// - Throws: ``CommandFailure`` (bad input) when it is none of these.
    init(_ text: String) throws {
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let url = URL(string: text) else {
                throw CommandFailure(.badInput, code: "invalidURL", "'\(text)' is not a URL; give one like http://127.0.0.1:8080/specs.")
            }
            self = .service(try SpecsServiceConfiguration(baseURL: url))
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory) else {
            throw CommandFailure(
                .badInput, code: "notFound",
                "\(text) does not exist; give a Specs folder, a page file (.json), a spec file (.podspec.json) or an http:// URL.")
        }
        let url = URL(fileURLWithPath: text)
        self = isDirectory.boolValue ? .folder(SpecsFolder(url: url)) : .pageFile(SpecsPageFile(url: url))
    }

    var description: String {
        switch self {
        case .service(let configuration): configuration.baseURL.absoluteString
        case .folder(let folder): folder.url.path
        case .pageFile(let file): file.url.path
        }
    }
}
