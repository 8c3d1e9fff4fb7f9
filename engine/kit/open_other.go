//go:build !unix

package kit

// openFlags: elsewhere opening a file does not wait for a writer.
const openFlags = 0
