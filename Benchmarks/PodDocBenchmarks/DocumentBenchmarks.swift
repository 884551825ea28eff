import Foundation
import PodDocArchive
import PodDocBenchmarkSupport
import PodDocDocument
import PodDocRandom
import PodDocStore

/// Autosave of 10,000 changed objects (total time, and what it costs the main actor), and
/// export / open of a large document as .tar.zst against `tar --zstd` on the same files.
@MainActor
extension DocumentBenchmarks {
    // MARK: - Autosave

    static func autosave(count: Int = 10_000) async throws -> [String] {
        let folder = try scratchFolder("autosave")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try await ManagedDocument.create(
            at: folder.appending(path: "Auto.poddoc"), kind: DocumentKind("org.poddoc.benchmarks.notes"),
            model: try model(), options: options(folder))
        for i in 0..<count { document.mainContext.insert("Note")[title] = "note \(i)" }
        try await document.save()
        var rows: [String] = []
        // What the history and the save graph cost an autosave: the same autosave (whole:
        // main → root → SQLite → metadata) recorded and not, taking turns, best of five.
        var recorded = Double.infinity
        var unrecorded = Double.infinity
        let retention = document.rootContext.store.historyRetention
        for round in 1...10 {
            let recording = round % 2 == 0
            document.rootContext.store.historyRetention = recording ? retention : nil
            for note in try document.mainContext.fetch(FetchRequest("Note")) { note[title] = "note h\(round) \(note.objectID)" }
            document.mainContext.processPendingChanges()
            let start = DispatchTime.now().uptimeNanoseconds
            await document.autosaveIfNeeded()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard !document.hasUnsavedChanges else { throw BenchmarkError("autosave failed") }
            if recording { recorded = min(recorded, seconds) } else { unrecorded = min(unrecorded, seconds) }
        }
        document.rootContext.store.historyRetention = retention
        rows.append(
            String(
                format:
                    "| autosave of %d changed objects, recording the history and the save graph | %.1f ms | without them (history off): %.1f ms | %.2fx |",
                count, recorded * 1000, unrecorded * 1000, recorded / unrecorded))
        for round in 1...3 {
            for note in try document.mainContext.fetch(FetchRequest("Note")) { note[title] = "note \(round) \(note.objectID)" }
            document.mainContext.processPendingChanges()
            let start = DispatchTime.now().uptimeNanoseconds
            await document.autosaveIfNeeded()
            let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard case .some = document.autosaveStatus.lastSuccess, !document.hasUnsavedChanges else {
                throw BenchmarkError("autosave failed: \(String(describing: document.autosaveStatus.lastError))")
            }
            // The same again, measuring the main thread's CPU: the benchmark drains the main
            // queue on the main thread (see main.swift), so that is the main actor's time,
            // including the main context merging the root's did-save after the save returns.
            for note in try document.mainContext.fetch(FetchRequest("Note")) { note[title] = "note \(round)b \(note.objectID)" }
            document.mainContext.processPendingChanges()
            let cpuBefore = mainThreadCPUTime()
            await document.autosaveIfNeeded()
            try await Task.sleep(for: .milliseconds(100))
            let mainActor = mainThreadCPUTime() - cpuBefore
            rows.append(
                String(
                    format: "| autosave of %d changed objects (run %d) | %.1f ms total | %.2f ms CPU on the main actor |",
                    count, round, total * 1000, mainActor * 1000))
        }
        try await document.close()
        return rows
    }

    // MARK: - Export and open

    static func exportAndOpen(megabytes: Int = 150) async throws -> [String] {
        let folder = try scratchFolder("archive")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appending(path: "Big.poddoc")
        let document = try await ManagedDocument.create(
            at: package, kind: DocumentKind("org.poddoc.benchmarks.notes"), model: try model(), options: options(folder))
        // About 1 KiB of text per note, varied enough not to compress to nothing.
        var random = SeededRandom(seed: 7)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
        let notes = megabytes * 1024 * 1024 / 1100
        for i in 0..<notes {
            let note = document.mainContext.insert("Note")
            note[title] = "note \(i)"
            note[body] = (0..<170).map { _ in words[Int(random.next() % 12)] }.joined(separator: " ")
        }
        try await document.save()
        let size = (try FileManager.default.attributesOfItem(atPath: document.storeURL.path)[.size] as? Int) ?? 0

        let ours = folder.appending(path: "Big.poddoc.tar.zst")
        var exportTime = Double.infinity
        for attempt in 0..<3 {
            try? FileManager.default.removeItem(at: ours)
            let start = DispatchTime.now().uptimeNanoseconds
            try await document.save(to: ours)
            exportTime = min(exportTime, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            _ = attempt
        }
        try await document.close()
        let tarFile = folder.appending(path: "tar.tar.zst")
        let tarCreate = [
            "--zstd", "-cf", tarFile.path, "-C", package.path, "--exclude=.poddoc-lock",
            "--exclude=StoreContent/persistentStore-wal", "--exclude=StoreContent/persistentStore-shm", ".",
        ]
        let tarExport = try measure {
            try? FileManager.default.removeItem(at: tarFile)
            try run("/bin/tar", tarCreate)
        }

        var openTime = Double.infinity
        for _ in 0..<3 {
            let other = folder.appending(path: "open-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            let start = DispatchTime.now().uptimeNanoseconds
            let opened = try await ManagedDocument.open(ours, model: try model(), options: options(other))
            openTime = min(openTime, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await opened.close()
        }
        let tarOpen = try measure {
            let target = folder.appending(path: "untar-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try run("/bin/tar", ["--zstd", "-xf", tarFile.path, "-C", target.path])
        }
        // The CPU each spends on one open (both cores count): what two cores can overlap.
        let cpuBefore = processCPUSeconds()
        let other = folder.appending(path: "open-cpu")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try await ManagedDocument.open(ours, model: try model(), options: options(other)).close()
        let openCPU = processCPUSeconds() - cpuBefore
        let tarCPUBefore = childrenCPUSeconds()
        let tarTarget = folder.appending(path: "untar-cpu")
        try FileManager.default.createDirectory(at: tarTarget, withIntermediateDirectories: true)
        try run("/bin/tar", ["--zstd", "-xf", tarFile.path, "-C", tarTarget.path])
        let tarCPU = childrenCPUSeconds() - tarCPUBefore
        // Where opening spends its time: the checked, hashed, synced unpack alone; tar with a
        // sync of what it wrote (the part of the floor that durability adds); the integrity
        // check of the unpacked store alone.
        let unpacked = folder.appending(path: "unpacked-\(UUID().uuidString)")
        let unpackedStore = PackageLayout(root: unpacked).store
        let removeUnpacked: () -> Void = { try? FileManager.default.removeItem(at: unpacked) }
        let extractOnly = try measure(setUp: removeUnpacked) {
            try Archive.extract(archive: ours, into: unpacked, manifestPolicy: .require)
        }
        // The disk's own limit: the unpacked store's bytes, already in memory, written to a new
        // file and synced (`dd conv=fsync`). Opening must put as much on disk durably.
        let durableCopy = folder.appending(path: "dd-copy")
        let removeDurableCopy: () -> Void = { try? FileManager.default.removeItem(at: durableCopy) }
        let durableWrite = try measure(setUp: removeDurableCopy) {
            try run("/bin/dd", ["if=\(unpackedStore.path)", "of=\(durableCopy.path)", "bs=1M", "conv=fsync", "status=none"])
        }
        let tarAndSync = try measure {
            let target = folder.appending(path: "untar-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try run("/bin/tar", ["--zstd", "-xf", tarFile.path, "-C", target.path])
            // Every file and folder tar wrote, synced (`fsync` each), as opening syncs them.
            let written = FileManager.default.enumerator(atPath: target.path)?.compactMap { $0 as? String } ?? []
            try run("/bin/sync", [target.path] + written.map { target.appending(path: $0).path })
        }
        let tarExportAndSync = try measure {
            try? FileManager.default.removeItem(at: tarFile)
            try run("/bin/tar", tarCreate)
            try run("/bin/sync", ["-f", tarFile.path])
        }
        let checkOnly = try measure {
            let store = try PersistentStore(url: unpackedStore, model: try model(), options: .init(readOnly: true, untrusted: true))
            try store.close()
        }
        var storeBytes = try Data(contentsOf: unpackedStore)
        let imageCheck = try measure {
            try storeBytes.withUnsafeMutableBytes { try PersistentStore.checkIntegrity(ofImage: $0, of: unpackedStore) }
        }
        let ourSize = (try FileManager.default.attributesOfItem(atPath: ours.path)[.size] as? Int) ?? 0
        let tarSize = (try FileManager.default.attributesOfItem(atPath: tarFile.path)[.size] as? Int) ?? 0
        return [
            String(
                format: "| export %.0f MB store as .tar.zst (%.0f MB) | %.3f s | tar --zstd -c: %.3f s (%.0f MB) | %.2fx |",
                Double(size) / 1e6, Double(ourSize) / 1e6, exportTime, tarExport, Double(tarSize) / 1e6, exportTime / tarExport),
            String(
                format:
                    "| … the same export against tar, then sync of the archive (poddoc's save syncs) | %.3f s | tar --zstd -c, then sync: %.3f s | %.2fx |",
                exportTime, tarExportAndSync, exportTime / tarExportAndSync),
            String(
                format: "| open that .tar.zst (unpack, verify manifest, integrity check, open) | %.3f s | tar --zstd -x: %.3f s | %.2fx |",
                openTime, tarOpen, openTime / tarOpen),
            String(
                format:
                    "| … the same open against tar, then a sync of every file and folder it wrote | %.3f s | tar --zstd -x, then sync: %.3f s | %.2fx |",
                openTime, tarAndSync, openTime / tarAndSync),
            String(
                format:
                    "| … the same open against the disk's limit: the store's bytes written and synced | %.3f s | dd conv=fsync: %.3f s | %.2fx |",
                openTime, durableWrite, openTime / durableWrite),
            String(
                format: "| … CPU time of one open (user + system, all threads) | %.3f s | tar --zstd -x (tar and zstd): %.3f s | %.2fx |",
                openCPU, tarCPU, openCPU / tarCPU),
            String(
                format:
                    "| … unpack alone (entries checked, SHA-256 of every file, fsync) | %.3f s | tar --zstd -x, then sync: %.3f s | %.2fx |",
                extractOnly, tarAndSync, extractOnly / tarAndSync),
            String(format: "| … quick_check of the unpacked store alone, read from the file | %.3f s | | |", checkOnly),
            String(
                format:
                    "| … the same check on the store's bytes in memory (as opening runs it, beside the unpack and the sync) | %.3f s | | |",
                imageCheck),
        ]
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(executable) failed") }
    }
}
