import Foundation
import PodDocDocument
import PodDocStore
import XCTest

/// A kind of document declared here, in the tests, and nowhere in poddoc: a cookbook of
/// recipes, their ingredients (a relationship) and their steps (an ordered tree). The
/// library makes and edits its documents; the `poddoc` binary, which does not know the kind,
/// reads, checks, diffs, merges, reverts, exports, rebuilds and recovers them with the model
/// their store records, and never writes them with another kind's model.
enum Cookbook {
    static let kind = DocumentKind("org.example.cookbook")

    enum Recipe {
        static let title = Attribute<String>("title", default: "")
        static let serves = Attribute<Int>("serves", default: 2)
        static let favourite = Attribute<Bool>("favourite", default: false)
        static let added = Attribute<Date>("added")
        static let rating = Attribute<Double?>("rating")
        static let photo = Attribute<Data?>("photo")
        static let notes = Attribute<String?>("notes")  // version 2
        static let ingredients = ToMany("ingredients", to: "Ingredient", inverse: "recipe", deleteRule: .cascade)
    }

    enum Ingredient {
        static let name = Attribute<String>("name", default: "")
        static let amount = Attribute<String?>("amount")
        static let recipe = ToOne("recipe", to: "Recipe", inverse: "ingredients")
    }

    enum Step {
        static let text = Attribute<String>("text", default: "")
        static let order = Attribute<Int>("order", default: 0)
        static let parent = ToOne("parent", to: "Step", inverse: "children")
        static let children = ToMany("children", to: "Step", inverse: "parent", deleteRule: .cascade)
    }

    static func entities(version: Int) -> [EntityDescription] {
        let recipe: [any EntityMember] =
            [Recipe.title, Recipe.serves, Recipe.favourite, Recipe.added, Recipe.rating, Recipe.photo]
            + (version >= 2 ? [Recipe.notes] : []) + [Recipe.ingredients]
        return [
            EntityDescription("Recipe", members: recipe),
            EntityDescription("Ingredient", members: [Ingredient.name, Ingredient.amount, Ingredient.recipe]),
            EntityDescription("Step", members: [Step.text, Step.order, Step.parent, Step.children]),
        ]
    }

    static let merging = MergeDescription(trees: [OrderedTree(entity: "Step", parent: Step.parent, order: Step.order)])

    static func type(version: Int) throws -> DocumentType {
        let earlier = version > 1 ? [try ObjectModel(version: 1, entities: entities(version: 1), merging: merging)] : []
        let model = try ObjectModel(version: version, entities: entities(version: version), merging: merging, earlierVersions: earlier)
        return DocumentType(kind: kind, displayName: "Cookbook", model: model)
    }
}

final class AppKindTests: CommandLineTestCase {
    private var options: ManagedDocument.OpenOptions {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        options.environment = environment
        return options
    }

    /// Every file under `path` and its bytes' SHA-256, to prove a command wrote nothing.
    private func contents(_ path: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [:] }
        guard isFolder.boolValue else { return [path: try Data(contentsOf: URL(fileURLWithPath: path))] }
        for case let file as String in FileManager.default.enumerator(atPath: path) ?? FileManager.default.enumerator(atPath: "/")! {
            let full = path + "/" + file
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &folder), !folder.boolValue {
                result[file] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return result
    }

    /// A cookbook package: Pancakes (eggs, flour; two steps, one under the other) and Soup.
    @MainActor private func makeCookbook(_ name: String) async throws -> String {
        let url = URL(fileURLWithPath: path(name))
        let document = try await ManagedDocument.create(at: url, type: try Cookbook.type(version: 1), options: options)
        let context = document.mainContext
        let pancakes = context.insert("Recipe")
        pancakes[Cookbook.Recipe.title] = "Pancakes"
        pancakes[Cookbook.Recipe.added] = Date(timeIntervalSince1970: 1_700_000_000.25)
        pancakes[Cookbook.Recipe.rating] = 4.5
        pancakes[Cookbook.Recipe.photo] = Data([0, 1, 2, 255])
        for (name, amount) in [("eggs", "2"), ("flour", "200 g")] {
            let ingredient = context.insert("Ingredient")
            ingredient[Cookbook.Ingredient.name] = name
            ingredient[Cookbook.Ingredient.amount] = amount
            ingredient[Cookbook.Ingredient.recipe] = pancakes
        }
        let mix = context.insert("Step")
        mix[Cookbook.Step.text] = "Mix"
        let whisk = context.insert("Step")
        whisk[Cookbook.Step.text] = "Whisk the eggs \"well\""
        whisk[Cookbook.Step.parent] = mix
        try await document.save()
        // An edit undone before the save: never written.
        let soup = context.insert("Recipe")
        soup[Cookbook.Recipe.title] = "Soup"
        soup[Cookbook.Recipe.added] = Date(timeIntervalSince1970: 1_700_000_100)
        soup[Cookbook.Recipe.serves] = 4
        try await document.save()
        pancakes[Cookbook.Recipe.title] = "Crêpes"
        document.undoManager.undo()
        try await document.close()
        return url.path
    }

    @MainActor func testTheBinaryReadsADocumentOfAKindItDoesNotKnow() async throws {
        let doc = try await makeCookbook("Cookbook.poddoc")
        let before = try contents(doc)

        let info = try succeed("info", doc).stdout
        XCTAssertTrue(info.contains("org.example.cookbook"), info)
        XCTAssertTrue(info.contains("Recipe"), info)
        XCTAssertTrue(try succeed("check", doc).stdout.contains("ok"))

        let entities = try succeed("objects", "ls", doc).stdout
        XCTAssertEqual(entities, "Recipe      2 objects\nIngredient  2 objects\nStep        2 objects\n")
        let recipes = try succeed("objects", "ls", doc, "Recipe").stdout
        XCTAssertTrue(recipes.hasPrefix("Recipe 1  title=\"Pancakes\" serves=2 favourite=false added=2023-11-14T22:13:20Z"), recipes)
        XCTAssertTrue(recipes.contains("rating=4.5 photo=<4 bytes>"), recipes)
        XCTAssertTrue(recipes.contains("Recipe 2  title=\"Soup\" serves=4"), recipes)
        let steps = try succeed("objects", "ls", doc, "Step").stdout
        XCTAssertTrue(steps.contains(#"Step 2  text="Whisk the eggs \"well\"" order=0 parent=Step 1"#), steps)
        let shown = try succeed("objects", "show", doc, "Recipe", "1").stdout
        XCTAssertTrue(shown.contains("ingredients: 2 Ingredient (1, 2)"), shown)
        struct Listed: Decodable {
            struct Object: Decodable {
                let id: Int
                let title: String?
                let rating: Double?
            }
            let count: Int
            let objects: [Object]
        }
        let listed = try succeed("objects", "ls", doc, "Recipe", "--json").json(Listed.self)
        XCTAssertEqual(listed.count, 2)
        XCTAssertEqual(listed.objects.map(\.title), ["Pancakes", "Soup"])
        XCTAssertEqual(listed.objects.first?.rating, 4.5)
        let missing = try fail(66, "objects", "show", doc, "Recipe", "9")
        XCTAssertTrue(missing.stderr.contains("no Recipe 9"), missing.stderr)
        let noEntity = try fail(65, "objects", "ls", doc, "Cake")
        XCTAssertTrue(noEntity.stderr.contains("its entities are Recipe, Ingredient, Step"), noEntity.stderr)

        // The shell offers the listings for a kind it does not know.
        let shell = try succeed("open", doc, "--read-only", "-c", "ls; ls Ingredient; show Step 2; help").stdout
        XCTAssertTrue(shell.contains("Ingredient  2 objects"), shell)
        XCTAssertTrue(shell.contains(#"Ingredient 2  name="flour" amount="200 g" recipe=Recipe 1"#), shell)
        XCTAssertTrue(shell.contains("parent:"), shell)

        let versions = try succeed("versions", doc).stdout
        XCTAssertTrue(versions.contains("save 2") && versions.contains("Recipe: 1 inserted"), versions)
        let diff = try succeed("diff", doc, "--from", "1").stdout
        XCTAssertTrue(diff.hasPrefix("+ Recipe 2\n") && diff.hasSuffix(": 1 added.\n"), diff)

        // Commands that only read wrote nothing; commands of other kinds refuse it.
        XCTAssertEqual(try contents(doc), before)
        try fail(66, "outline", "add", doc, "Milk")
        try fail(66, "pods", "count", doc)
        try fail(65, "import", doc, "--opml", try writeOPML("a.opml", body: [#"<outline text="x"/>"#]))
        XCTAssertEqual(try contents(doc), before, "refused edits wrote nothing")
        // The library refuses to open it as another kind: never another kind's model.
        do {
            _ = try await ManagedDocument.open(
                URL(fileURLWithPath: doc),
                as: DocumentType(kind: DocumentKind("outline"), displayName: "Outline", model: try ObjectModel(entities: [])),
                options: options)
            XCTFail("opened a cookbook as an outline")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .wrongKind)
            XCTAssertTrue(error.message.contains("org.example.cookbook"), error.message)
        }
        XCTAssertEqual(try contents(doc), before)
    }

    @MainActor func testCopiesMergeRevertExportAndRebuildThroughTheBinary() async throws {
        let doc = try await makeCookbook("Cookbook.poddoc")
        let copy = path("Cookbook-laptop.poddoc.tar.zst")
        XCTAssertTrue(try succeed("save", doc, "--as", copy).stdout.contains("Saved as"))
        try succeed("check", copy)

        // Each copy edited by the app: a new ingredient on the laptop, a favourite here.
        let type = try Cookbook.type(version: 1)
        let laptop = try await ManagedDocument.open(URL(fileURLWithPath: copy), as: type, options: options)
        let soup = try XCTUnwrap(try laptop.mainContext.existingObject(with: .permanent(entity: "Recipe", rowID: 2)))
        let salt = laptop.mainContext.insert("Ingredient")
        salt[Cookbook.Ingredient.name] = "salt"
        salt[Cookbook.Ingredient.recipe] = soup
        let step = laptop.mainContext.insert("Step")
        step[Cookbook.Step.text] = "Rest"
        try await laptop.close()
        let mine = try await ManagedDocument.open(URL(fileURLWithPath: doc), as: type, options: options)
        let pancakes = try XCTUnwrap(try mine.mainContext.existingObject(with: .permanent(entity: "Recipe", rowID: 1)))
        pancakes[Cookbook.Recipe.favourite] = true
        try await mine.close()

        let merged = try succeed("merge", doc, copy).stdout
        XCTAssertTrue(merged.contains("Merged"), merged)
        XCTAssertTrue(try succeed("check", doc).stdout.contains("ok"))
        XCTAssertTrue(try succeed("objects", "ls", doc, "Ingredient").stdout.contains(#"name="salt""#))
        XCTAssertTrue(try succeed("objects", "show", doc, "Recipe", "1").stdout.contains("favourite:   true"))
        XCTAssertTrue(try succeed("merge", doc, copy).stdout.contains("Nothing to merge"), "merging again changes nothing")
        XCTAssertTrue(try succeed("merge", copy, doc).stdout.contains("Took"))
        let diffCopies = try succeed("diff", doc, copy).stdout
        XCTAssertTrue(diffCopies.contains("No differences"), diffCopies)

        // Export as it was, as it is, as an archive; rebuild from the objects JSON.
        try succeed("export", doc, path("Then.json"), "--format", "objects", "--at", "1")
        try succeed("export", doc, path("Now.json"), "--format", "json")
        struct Objects: Decodable {
            let format: String
            let version: Int
            let kind: String
            let objects: [String: [[String: AnyDecodable]]]
        }
        let then = try JSONDecoder().decode(Objects.self, from: Data(contentsOf: URL(fileURLWithPath: path("Then.json"))))
        XCTAssertEqual(then.format, "poddoc-objects")
        XCTAssertEqual(then.kind, "org.example.cookbook")
        XCTAssertEqual(then.objects["Recipe"]?.count, 1, "save 1 held Pancakes alone")
        let now = try JSONDecoder().decode(Objects.self, from: Data(contentsOf: URL(fileURLWithPath: path("Now.json"))))
        XCTAssertEqual(now.objects.mapValues(\.count), ["Recipe": 2, "Ingredient": 3, "Step": 3])
        let rebuilt = path("Rebuilt.poddoc")
        XCTAssertTrue(try succeed("new", rebuilt, "--from", path("Now.json")).stdout.contains("holding 8 objects"))
        try succeed("check", rebuilt)
        try succeed("export", rebuilt, path("Again.json"), "--format", "objects")
        // The same objects, numbered afresh (the laptop's objects had ids of its own range).
        for entity in ["Recipe", "Ingredient", "Step"] {
            func withoutIDs(_ listing: String) -> [String] {
                listing.split(separator: "\n").map { $0.components(separatedBy: "  ").dropFirst().joined(separator: "  ") }
            }
            XCTAssertEqual(
                withoutIDs(try succeed("objects", "ls", rebuilt, entity).stdout),
                withoutIDs(try succeed("objects", "ls", doc, entity).stdout))
        }
        try succeed("new", path("Twice.poddoc"), "--from", path("Again.json"))
        try succeed("export", path("Twice.poddoc"), path("Twice.json"), "--format", "objects")
        XCTAssertEqual(
            try String(contentsOfFile: path("Twice.json"), encoding: .utf8),
            try String(contentsOfFile: path("Again.json"), encoding: .utf8),
            "rebuilt again, the very same file")
        try succeed("export", doc, path("Packed.poddoc.zip"), "--format", "archive")
        XCTAssertTrue(try succeed("check", path("Packed.poddoc.zip")).stdout.contains("ok"))
        try fail(64, "export", doc, path("x.opml"), "--format", "opml")

        // Revert to save 1 (a new save), and back out of it by merging nothing.
        let reverted = try succeed("revert", doc, "--to", "1").stdout
        XCTAssertTrue(reverted.contains("Reverted"), reverted)
        XCTAssertEqual(try succeed("objects", "ls", doc).stdout, "Recipe      1 object\nIngredient  2 objects\nStep        2 objects\n")
        try succeed("check", doc)
    }

    @MainActor func testTheAppUpgradesItsDocumentAndTheBinaryReadsEachVersion() async throws {
        let doc = try await makeCookbook("Cookbook.poddoc")
        XCTAssertTrue(try succeed("info", doc).stdout.contains("version 1"))
        let upgraded = try await ManagedDocument.open(URL(fileURLWithPath: doc), as: try Cookbook.type(version: 2), options: options)
        let soup = try XCTUnwrap(try upgraded.mainContext.existingObject(with: .permanent(entity: "Recipe", rowID: 2)))
        soup[Cookbook.Recipe.notes] = "Better the next day"
        try await upgraded.close()
        XCTAssertTrue(try succeed("info", doc).stdout.contains("version 2"))
        XCTAssertTrue(try succeed("objects", "show", doc, "Recipe", "2").stdout.contains(#"notes:       "Better the next day""#))
        try succeed("check", doc)
        // The app of version 1 cannot write it any more; it is never brought down.
        do {
            _ = try await ManagedDocument.open(URL(fileURLWithPath: doc), as: try Cookbook.type(version: 1), options: options)
            XCTFail("a version 1 app opened a version 2 document for writing")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .newerFormat)
        }
    }

    func testAnyDocumentIsTakenApartAndRebuiltAndBadFilesMakeNothing() throws {
        // poddoc's own kinds too: an outline as objects, rebuilt, is the same outline.
        let notes = try makeOutline("Notes.poddoc", holding: "Work", "Home")
        try succeed("outline", "add", notes, "Garden", "--under", "2")
        try succeed("export", notes, path("notes.json"), "--format", "objects")
        let rebuilt = path("Rebuilt.poddoc.tar.zst")
        XCTAssertTrue(try succeed("new", rebuilt, "--from", path("notes.json")).stdout.contains("a document of kind outline"))
        XCTAssertEqual(try succeed("outline", "tree", rebuilt).stdout, try succeed("outline", "tree", notes).stdout)
        try succeed("outline", "add", rebuilt, "Later")
        try succeed("check", rebuilt)
        XCTAssertTrue(try succeed("objects", "ls", notes).stdout.contains("OutlineItem  4 objects"))
        // A long text is cut in a listing, and said how long it is; JSON holds it whole.
        try succeed("outline", "note", notes, "1", String(repeating: "long note ", count: 100))
        let listing = try succeed("objects", "ls", notes, "OutlineItem").stdout
        XCTAssertTrue(listing.contains(#"note="long note long note "#) && listing.contains("… (1000 characters)"), listing)
        XCTAssertLessThan(listing.count, 2_000, listing)
        XCTAssertTrue(
            try succeed("objects", "ls", notes, "OutlineItem", "--json").stdout.contains(String(repeating: "long note ", count: 100)))

        // Bad files: one clear line, nothing made.
        let target = path("Never.poddoc")
        try Data("{\"format\": \"poddoc-objects\", \"version\": 1, \"ki".utf8).write(to: URL(fileURLWithPath: path("cut.json")))
        let cut = try fail(65, "new", target, "--from", path("cut.json"))
        XCTAssertTrue(cut.stderr.contains("not valid JSON"), cut.stderr)
        let missing = try fail(66, "new", target, "--from", path("nothing.json"))
        XCTAssertTrue(missing.stderr.contains("nothing.json"), missing.stderr)
        let wrongKind = try fail(65, "new", target, "--from", path("notes.json"), "--kind", "pods")
        XCTAssertTrue(wrongKind.stderr.contains("holds a document of kind outline, not pods"), wrongKind.stderr)
        var text = try String(contentsOfFile: path("notes.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: #""version":2"#, with: #""version":9"#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path("newer.json")))
        let newer = try fail(65, "new", target, "--from", path("newer.json"))
        XCTAssertTrue(newer.stderr.contains("does not have"), newer.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let existing = try fail(66, "new", notes, "--from", path("notes.json"))
        XCTAssertTrue(existing.stderr.contains("already exists"), existing.stderr)
        try fail(64, "new", target)
        try fail(64, "new", target, "--kind", "org.example.cookbook")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
    }

    @MainActor func testWorkAutosavedInAnArchiveOfAnUnknownKindIsRecovered() async throws {
        let doc = try await makeCookbook("Cookbook.poddoc")
        let archive = path("Cookbook.poddoc.tar.zst")
        try succeed("export", doc, archive, "--format", "archive")
        let copy = path("Other.poddoc")
        try succeed("save", archive, "--as", copy)
        let type = try Cookbook.type(version: 1)
        let other = try await ManagedDocument.open(URL(fileURLWithPath: copy), as: type, options: options)
        other.mainContext.insert("Step")[Cookbook.Step.text] = "Serve"
        try await other.close()
        // A shell merges the copy, which saves into the archive's working copy, and is killed.
        let input = Pipe()
        let (shell, out, _) = try start(["open", archive], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("merge \(copy)\n".utf8))
        XCTAssertTrue(out.wait(for: "1 object changed"), out.current)
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()
        XCTAssertFalse(try succeed("objects", "ls", archive, "Step").stdout.contains("Serve"), "the archive is as it was")
        XCTAssertTrue(try succeed("recover").stdout.contains(archive))
        try succeed("recover", archive)
        XCTAssertTrue(try succeed("objects", "ls", archive, "Step").stdout.contains(#"text="Serve""#))
        try succeed("check", archive)
    }
}

/// Any JSON value, for reading an objects file's rows in a test.
struct AnyDecodable: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { return }
        if (try? container.decode(Bool.self)) != nil { return }
        if (try? container.decode(Double.self)) != nil { return }
        _ = try container.decode(String.self)
    }
}
