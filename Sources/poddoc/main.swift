import CMalloc
import PodDocCommandLine

// glibc's malloc gives threads that allocate at once arenas of their own (up to eight per
// core), and memory freed in one arena serves only the threads of that arena. poddoc's work
// moves between a few threads (each context's queue, a merge's two readers, the main
// actor), so what one step freed would sit unused while the next allocated anew: with two
// arenas it serves the next step (docs/DESIGN.md, "Memory").
_ = mallopt(M_ARENA_MAX, 2)

await PodDoc.runMain()
