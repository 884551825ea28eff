import CMalloc

/// Memory the program has freed, as glibc's malloc keeps it.
enum FreedMemory {
    /// Hands the pages of the memory freed so far back to the system (glibc's
    /// `malloc_trim`), after a step that built large structures and let them go (a merge's
    /// plan, before its save): freed in one of the program's two malloc arenas (see
    /// `main.swift`), they would otherwise stay with the process while the next step, in the
    /// other arena, allocated anew. Costs a walk of the free lists: a few milliseconds.
    static func giveBack() {
        _ = malloc_trim(0)
    }
}
