import Foundation
import OutlineInterchange
import XCTest

// MARK: - Assertions

/// Runs `body` and returns the ``OutlineFormatError`` it throws, failing the test if it
/// throws nothing (or something else).
public func assertFormatError<T>(
    _ body: @autoclosure () throws -> T,
    file: StaticString = #filePath,
    line: UInt = #line
) -> OutlineFormatError? {
    do {
        _ = try body()
        XCTFail("expected an OutlineFormatError, but nothing was thrown", file: file, line: line)
    } catch let error as OutlineFormatError {
        return error
    } catch {
        XCTFail("expected an OutlineFormatError, got \(error)", file: file, line: line)
    }
    return nil
}

extension OutlineTree {
    /// Titles in pre-order, each prefixed by its depth, for readable failure messages.
    public var outlineSummary: [String] {
        depthFirst().map { "\($0.depth):\($0.item.title)" }
    }

    /// The top-level items' IDs.
    public var topLevel: [NodeID] { children(of: root) }
}

/// Items compared by title and note only (what Markdown keeps).
public func sameTitleAndNote(_ left: OutlineItem, _ right: OutlineItem) -> Bool {
    left.title == right.title && left.note == right.note
}

/// Items compared by title only (what indented text keeps).
public func sameTitle(_ left: OutlineItem, _ right: OutlineItem) -> Bool {
    left.title == right.title
}

/// Asserts that reading `text` as `format` is refused with `code` at `line` and `column`, with
/// a message that contains `fragment`.
public func assertRefused(
    _ text: String,
    as format: OutlineFormat,
    _ code: OutlineFormatError.Code,
    line: Int,
    column: Int,
    _ fragment: String,
    file: StaticString = #filePath,
    sourceLine: UInt = #line
) {
    let read = { try OutlineTree(data: Data(text.utf8), format: format) }
    guard let error = assertFormatError(try read(), file: file, line: sourceLine) else { return }
    XCTAssertEqual(error.code, code, error.description, file: file, line: sourceLine)
    XCTAssertEqual(error.format, format, file: file, line: sourceLine)
    XCTAssertEqual(error.line, line, error.description, file: file, line: sourceLine)
    XCTAssertEqual(error.column, column, error.description, file: file, line: sourceLine)
    XCTAssertTrue(
        error.message.contains(fragment), "'\(error.message)' does not contain '\(fragment)'",
        file: file, line: sourceLine)
}
