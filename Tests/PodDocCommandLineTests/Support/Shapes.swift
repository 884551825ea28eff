import Foundation

// The --json shapes docs/CLI.md documents, as the tests decode them.

struct InfoShape: Decodable {
    struct Lock: Decodable {
        let pid: Int32
        let host: String
        let running: Bool?
    }
    struct Recovery: Decodable {
        let workingCopy: String
        let autosaved: Date
    }
    let path: String
    let kind: String?
    let format: String
    let formatVersion: Int?
    let saveSequence: Int?
    let storeHash: String?
    let lastSave: Date?
    let counts: [String: Int]?
    let bytes: Int
    let lock: Lock?
    let recovery: Recovery?
}

struct NewShape: Decodable {
    let path: String
    let kind: String
    let format: String
    let documentID: String
}

struct CheckShape: Decodable {
    let ok: Bool
    let problems: [String]
    let storeHash: String?
}

struct SpecsImportShape: Decodable {
    let source: String
    let pages: Int
    let created: Int
    let updated: Int
    let rejected: Int
    let skipped: Int
    let complete: Bool
}

struct OutlineImportShape: Decodable {
    let format: String
    let done: String
    let topLevel: Int
}

struct SpecListShape: Decodable {
    struct Spec: Decodable {
        let name: String
        let version: String
        let summary: String?
    }
    let specs: [Spec]
}

struct CountShape: Decodable {
    let count: Int
}

struct ItemListShape: Decodable {
    struct Entry: Decodable {
        let path: String
        let title: String
        let note: String?
    }
    let path: String
    let items: [Entry]
}

struct EditShape: Decodable {
    let done: String
    let path: String?
    let deleted: Int?
}

struct FindShape: Decodable {
    struct Match: Decodable {
        let path: String
        let title: String
    }
    let matches: [Match]
}

struct ExportShape: Decodable {
    let output: String
    let format: String
    let specs: Int?
    let bytes: Int?
}

struct SaveShape: Decodable {
    let path: String
    let format: String
}

struct ServeShape: Decodable {
    let url: String
    let port: Int
    let specs: Int
}

struct RecoverShape: Decodable {
    struct Entry: Decodable {
        let document: String?
        let workingCopy: String
    }
    let waiting: [Entry]
    let recovered: String?
    let discarded: String?
}

struct VersionsShape: Decodable {
    struct Entry: Decodable {
        let save: Int
        let firstSave: Int
        let time: Date
        let host: String
        let writer: String
        let description: String
        let inserted: Int
        let updated: Int
        let deleted: Int
        let summary: String
    }
    let path: String
    let versions: [Entry]
}

struct ErrorShape: Decodable {
    struct Body: Decodable {
        let code: String
        let message: String
        let exitStatus: Int32
    }
    let error: Body
}

struct StatusShape: Decodable {
    let state: String
    let unsavedChanges: Bool
    let saveSequence: Int
    let undo: String?
}

struct RevertShape: Decodable {
    let save: Int
    let restored: Int
    let changed: Int
    let removed: Int
}

struct DiffShape: Decodable {
    struct Item: Decodable, Equatable {
        let kind: String
        let title: String
        let path: String
        let from: String?
        let below: Int?
        let properties: [String]?
    }
    struct Spec: Decodable, Equatable {
        let kind: String
        let name: String
        let version: String
        let fields: [String]?
    }
    let from: String
    let to: String
    let kind: String
    let items: [Item]?
    let specs: [Spec]?
}
