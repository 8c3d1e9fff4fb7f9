// Package kit holds the tool's own small helpers, none of them a rule of
// the game: a bounded file read (every file the tool reads is a small
// regular file: a FIFO, a device or a directory is refused), a size in
// words, a count with its noun in the plural when it takes one, and an
// outside text clipped for a message:
//
//	data, err := kit.ReadFileMax(path, 1<<20) // refuses a larger file or a FIFO, naming it
//	kit.Count(3, "Vote Share")                // "3 Vote Shares"
//	kit.Clip(arg)                             // a 100 KB argument as "aaaa…(102400 bytes)"
//
// Every layer uses them: the engine's event text, the Opposition's
// explanations, the scenario loader, the harness, the policies and the
// commands. So the package sits at the bottom, beside the engine, and
// imports nothing of the module. It is not an internal package because
// Go would hide engine/internal/... from everything outside the engine,
// and the repository has no top-level internal/ (its top level is fixed).
package kit
