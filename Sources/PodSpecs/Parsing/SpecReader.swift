import PodDocJSON
import PodDocStore

/// Why well-formed JSON is not a usable spec (no name, a version of the wrong type…).
struct SpecProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads one spec object and normalises the shapes real specs come in.
enum SpecReader {
    /// The members poddoc normalises; everything else is only checked for syntax.
    private struct Members {
        var name: JSONValue?
        var version: JSONValue?
        var summary: JSONValue?
        var description: JSONValue?
        var homepage: JSONValue?
        var license: JSONValue?
        var authors: JSONValue?
        var author: JSONValue?
        var source: JSONValue?
        var platforms: JSONValue?
        var socialMediaURL: JSONValue?
        var deprecated: JSONValue?
        var deprecatedInFavorOf: JSONValue?
        var requiresARC: JSONValue?
        var swiftVersions: JSONValue?
        var swiftVersion: JSONValue?
    }

    /// Reads the object at the scanner: a spec, or the reason it is not one. Syntax errors throw.
    ///
    /// - Parameter keys: Storage for the member names, reused from spec to spec (a page's
    ///   specs share one), to refuse a name given twice.
    static func read(_ scanner: inout JSONScanner, depth: Int, keys: inout JSONKeySet) throws -> Result<PodSpec, SpecProblem> {
        scanner.skipSpace()
        let start = scanner.index
        var m = Members()
        keys.removeAll()
        var repeated: String?
        try scanner.forEachMember(depth: depth) { key, scanner in
            let next = depth + 1
            if !keys.insert(key), repeated == nil { repeated = key }
            switch key {
            case "name": m.name = try scanner.parseValue(depth: next)
            case "version": m.version = try scanner.parseValue(depth: next)
            case "summary": m.summary = try scanner.parseValue(depth: next)
            case "description": m.description = try scanner.parseValue(depth: next)
            case "homepage": m.homepage = try scanner.parseValue(depth: next)
            case "license": m.license = try scanner.parseValue(depth: next)
            case "authors": m.authors = try scanner.parseValue(depth: next)
            case "author": m.author = try scanner.parseValue(depth: next)
            case "source": m.source = try scanner.parseValue(depth: next)
            case "platforms": m.platforms = try scanner.parseValue(depth: next)
            case "social_media_url": m.socialMediaURL = try scanner.parseValue(depth: next)
            case "deprecated": m.deprecated = try scanner.parseValue(depth: next)
            case "deprecated_in_favor_of": m.deprecatedInFavorOf = try scanner.parseValue(depth: next)
            case "requires_arc": m.requiresARC = try scanner.parseValue(depth: next)
            case "swift_versions": m.swiftVersions = try scanner.parseValue(depth: next)
            case "swift_version": m.swiftVersion = try scanner.parseValue(depth: next)
            default: try scanner.skipValue(depth: next)
            }
        }
        if let repeated { return .failure(twice(repeated)) }
        let json = JSONText(String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index]), as: UTF8.self))
        do {
            return .success(try normalise(m, json: json))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Normalising

    private static func normalise(_ m: Members, json: JSONText) throws(SpecProblem) -> PodSpec {
        let name = try identifierPart(m.name, "name")
        let version = try identifierPart(m.version, "version")
        let inFavorOf = try string(m.deprecatedInFavorOf, "deprecated_in_favor_of")
        return PodSpec(
            name: name, version: version,
            summary: try string(m.summary, "summary"), description: try string(m.description, "description"),
            homepage: try string(m.homepage, "homepage"),
            license: try license(m.license), authors: try authors(m.authors ?? m.author, m.authors == nil ? "author" : "authors"),
            source: try source(m.source), platforms: try platforms(m.platforms),
            socialMediaURL: try string(m.socialMediaURL, "social_media_url"),
            isDeprecated: m.deprecated == .bool(true) || inFavorOf != nil, deprecatedInFavorOf: inFavorOf,
            requiresARC: requiresARC(m.requiresARC), swiftVersions: swiftVersions(m.swiftVersions, m.swiftVersion), json: json)
    }

    /// The name or version: a string, not empty, without the key separator.
    private static func identifierPart(_ value: JSONValue?, _ field: String) throws(SpecProblem) -> String {
        guard let value else { throw SpecProblem("it has no \"\(field)\"") }
        guard case .string(let text) = value else { throw wrongKind(value, field, "a string") }
        guard !text.allSatisfy(\.isWhitespace) else { throw SpecProblem("its \"\(field)\" is empty") }
        guard !text.contains(PodSpec.keySeparator) else {
            throw SpecProblem(
                "its \"\(field)\" \(String(reflecting: text)) contains '\(PodSpec.keySeparator)', which names and versions cannot hold")
        }
        return text
    }

    /// A string member; null counts as absent, another kind refuses the spec.
    private static func string(_ value: JSONValue?, _ field: String) throws(SpecProblem) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw wrongKind(other, field, "a string")
        }
    }

    private static func wrongKind(_ value: JSONValue, _ field: String, _ expected: String) -> SpecProblem {
        SpecProblem("its \"\(field)\" is \(value.kindName), not \(expected)")
    }

    /// A field given twice: which one a reader would take is not for poddoc to guess.
    private static func twice(_ field: String) -> SpecProblem {
        SpecProblem("its \"\(field)\" is given twice; a spec gives each field once")
    }

    /// The members of an object the reader reads, refused when a name occurs twice.
    private static func distinct(
        _ members: [(key: String, value: JSONValue)], _ field: String
    ) throws(SpecProblem) -> [(key: String, value: JSONValue)] {
        if let repeated = JSONKeySet.firstRepeatedKey(in: members) { throw twice("\(field).\(repeated)") }
        return members
    }

    /// `"MIT"` or `{"type": "MIT", "file": "LICENSE", "text": "…"}`.
    private static func license(_ value: JSONValue?) throws(SpecProblem) -> PodLicense? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let type)?:
            return PodLicense(type: type)
        case .object(let all)?:
            let members = try distinct(all, "license")
            func member(_ key: String) throws(SpecProblem) -> String? {
                try string(members.first { $0.key == key }?.value, "license.\(key)")
            }
            return PodLicense(type: try member("type"), file: try member("file"), text: try member("text"))
        case let other?:
            throw wrongKind(other, "license", "a string or an object")
        }
    }

    /// `{"Name": "email"}` (email may be null or empty), `"Name"`, or an array of names and such objects.
    private static func authors(_ value: JSONValue?, _ field: String) throws(SpecProblem) -> [PodAuthor] {
        func fromObject(_ members: [(key: String, value: JSONValue)]) throws(SpecProblem) -> [PodAuthor] {
            var authors: [PodAuthor] = []
            for member in try distinct(members, field) {
                authors.append(PodAuthor(name: member.key, email: try email(member.value, field)))
            }
            return authors
        }
        switch value {
        case nil, .null?:
            return []
        case .string(let name)?:
            return [PodAuthor(name: name)]
        case .object(let members)?:
            return try fromObject(members)
        case .array(let elements)?:
            var authors: [PodAuthor] = []
            for element in elements {
                switch element {
                case .string(let name): authors.append(PodAuthor(name: name))
                case .object(let members): authors += try fromObject(members)
                default: throw SpecProblem("its \"\(field)\" holds \(element.kindName); authors are names, or objects of names and emails")
                }
            }
            return authors
        case let other?:
            throw wrongKind(other, field, "a name, an object of names and emails, or an array of those")
        }
    }

    private static func email(_ value: JSONValue, _ field: String) throws(SpecProblem) -> String? {
        guard let email = try string(value, "\(field) email"), !email.isEmpty else { return nil }
        return email
    }

    /// `{"git": url, "tag"|"commit"|"branch": …}`, `{"http": url}`, `{"svn": url, "tag"|"revision": …}`,
    /// `{"hg": url, "revision": …}`; a number is taken as written (`"tag": 0.1` is real).
    private static func source(_ value: JSONValue?) throws(SpecProblem) -> PodSource? {
        switch value {
        case nil, .null?: return nil
        case .object(let all)?:
            let members = try distinct(all, "source")
            func member(_ key: String) -> String? { members.first { $0.key == key }?.value.text }
            for kind in PodSource.Kind.allCases {
                if let url = member(kind.rawValue) {
                    return PodSource(
                        kind: kind, url: url, tag: member("tag"),
                        commit: member("commit") ?? member("revision"), branch: member("branch"))
                }
            }
            return nil
        case let other?:
            throw wrongKind(other, "source", "an object")
        }
    }

    /// `{"ios": "5.0", "osx": null}`; a number is taken as written (real specs have them).
    private static func platforms(_ value: JSONValue?) throws(SpecProblem) -> [PodPlatform] {
        switch value {
        case nil, .null?: return []
        case .object(let members)?:
            return try distinct(members, "platforms").map { PodPlatform(name: $0.key, deploymentTarget: $0.value.text) }
        case let other?: throw wrongKind(other, "platforms", "an object")
        }
    }

    /// The Swift versions of `swift_versions` (a string or an array of strings), then
    /// `swift_version`, each once; other values, and versions with characters other than
    /// letters, digits and `.+_-`, are left out (they never refuse a spec).
    private static func swiftVersions(_ versions: JSONValue?, _ version: JSONValue?) -> [String] {
        var found: [String] = []
        func add(_ value: JSONValue?) {
            guard case .string(let text)? = value, !text.isEmpty,
                text.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".+_-".unicodeScalars.contains($0))
                }),
                !found.contains(text)
            else { return }
            found.append(text)
        }
        switch versions {
        case .array(let elements)?: elements.forEach(add)
        default: add(versions)
        }
        add(version)
        return found
    }

    /// The Swift versions of a spec's JSON (``PodSpec/swiftVersions``); none when it is not a
    /// JSON object.
    static func swiftVersions(inSpecJSON json: String) -> [String] {
        var bytes = Array(json.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = JSONScanner(UnsafeBufferPointer(buffer))
            var versions: JSONValue?
            var version: JSONValue?
            do {
                try scanner.forEachMember { key, scanner in
                    switch key {
                    case "swift_versions": versions = try scanner.parseValue(depth: 1)
                    case "swift_version": version = try scanner.parseValue(depth: 1)
                    default: try scanner.skipValue(depth: 1)
                    }
                }
            } catch {
                return []
            }
            return swiftVersions(versions, version)
        }
    }

    /// A boolean, `"true"`/`"yes"`/`"false"`/`"no"`, a file pattern (true), or an array of those.
    private static func requiresARC(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag)?:
            return flag
        case .string(let text)?:
            switch text.lowercased() {
            case "false", "no", "": return false
            default: return true
            }
        case .array(let elements)?:
            return elements.contains { element in
                switch element {
                case .bool(let flag): return flag
                case .string(let text): return !["false", "no", ""].contains(text.lowercased())
                default: return false
                }
            }
        default:
            return nil
        }
    }
}
