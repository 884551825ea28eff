import Synchronization

/// The pages of a specs web service, fetched ahead of their use, a window of them at once.
///
/// Iterating asks for page `first` alone (its answer tells how many pages there are); as soon
/// as a page is handed out, the next ``SpecsServiceConfiguration/pagesInFlight`` pages (fewer
/// when pages are big) are requested in the background, so fetching and parsing overlap with the caller's import and
/// a page waiting for a retry never stops the others. Pages are handed out in order, so an
/// import commits them in order. At most the window's pages and the one being used are held.
/// Dropping the iterator cancels the fetches in flight.
public struct SpecsPageSequence: AsyncSequence, Sendable {
    /// The element: one parsed page.
    public typealias Element = SpecsPage

    let client: SpecsClient
    let first: Int

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, next: first)
    }

    /// Iterates the pages, a window of them fetched ahead.
    public struct Iterator: AsyncIteratorProtocol {
        private let client: SpecsClient
        private var next: Int?
        private let window = Window()

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
                window.cancelAll()
                throw CancellationError()
            }
            let task = window.take(index) ?? fetch(index)
            let page: SpecsPage
            do {
                page = try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            } catch {
                next = nil
                window.cancelAll()
                throw error
            }
            if page.isPastEnd || index + 1 >= page.numberOfPages {
                next = nil
                window.cancelAll()
            } else {
                next = index + 1
                let end = Swift.min(index + 1 + client.pagesAhead, page.numberOfPages)
                for ahead in (index + 1)..<end where !window.holds(ahead) { window.hold(ahead, fetch(ahead)) }
            }
            return page.isPastEnd ? nil : page
        }

        private func fetch(_ index: Int) -> Task<SpecsPage, any Error> {
            let client = client
            return Task { try await client.fetchPage(index) }
        }
    }

    /// The fetches in flight, by page, cancelled when the iterator goes away.
    final class Window: Sendable {
        private let tasks = Mutex<[Int: Task<SpecsPage, any Error>]>([:])

        func holds(_ index: Int) -> Bool { tasks.withLock { $0[index] != nil } }
        func hold(_ index: Int, _ task: Task<SpecsPage, any Error>) { tasks.withLock { $0[index] = task } }
        func take(_ index: Int) -> Task<SpecsPage, any Error>? { tasks.withLock { $0.removeValue(forKey: index) } }

        func cancelAll() {
            let all = tasks.withLock { tasks in
                defer { tasks = [:] }
                return Array(tasks.values)
            }
            for task in all { task.cancel() }
        }

        deinit { cancelAll() }
    }
}
