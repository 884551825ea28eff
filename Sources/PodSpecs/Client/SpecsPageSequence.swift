import Synchronization

/// The pages of a specs web service, each fetched while the previous one is being used.
///
/// Iterating asks for page `first`; as soon as a page is handed out, the next one is requested
/// in the background, so fetching and parsing overlap with the caller's import. Only the page
/// being used and the one being fetched are held. Dropping the iterator cancels the fetch in
/// flight.
public struct SpecsPageSequence: AsyncSequence, Sendable {
    /// The element: one parsed page.
    public typealias Element = SpecsPage

    let client: SpecsClient
    let first: Int

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, next: first)
    }

    /// Iterates the pages, one fetched ahead.
    public struct Iterator: AsyncIteratorProtocol {
        private let client: SpecsClient
        private var next: Int?
        private let prefetch = Prefetch()

        init(client: SpecsClient, next: Int) {
            self.client = client
            self.next = next
        }

        /// The next page, or nil after the last.
        ///
        /// - Throws: what ``SpecsClient/fetchPage(_:)`` throws, or `CancellationError` when the
        ///   task is cancelled (even if the page had already arrived); the sequence then ends.
        public mutating func next() async throws -> SpecsPage? {
            guard let index = next else { return nil }
            if Task.isCancelled {
                next = nil
                prefetch.take()?.cancel()
                throw CancellationError()
            }
            let task = prefetch.take() ?? fetch(index)
            let page: SpecsPage
            do {
                page = try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            } catch {
                next = nil
                throw error
            }
            if page.isPastEnd || index + 1 >= page.numberOfPages {
                next = nil
            } else {
                next = index + 1
                prefetch.hold(fetch(index + 1))
            }
            return page.isPastEnd ? nil : page
        }

        private func fetch(_ index: Int) -> Task<SpecsPage, any Error> {
            let client = client
            return Task { try await client.fetchPage(index) }
        }
    }

    /// The fetch in flight, cancelled when the iterator goes away.
    final class Prefetch: Sendable {
        private let task = Mutex<Task<SpecsPage, any Error>?>(nil)

        func hold(_ newTask: Task<SpecsPage, any Error>) { task.withLock { $0 = newTask } }
        func take() -> Task<SpecsPage, any Error>? {
            task.withLock { t in
                defer { t = nil }
                return t
            }
        }

        deinit { task.withLock { $0?.cancel() } }
    }
}
