//go:build unix

package kit

import "syscall"

// openFlags opens without waiting: a FIFO put in place of a checked file
// opens at once (and is refused), instead of waiting for a writer.
const openFlags = syscall.O_NONBLOCK
