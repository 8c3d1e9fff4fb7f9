package kit

import (
	"fmt"
	"io"
	"os"
)

// ReadFileMax reads the file at path, refusing one larger than max bytes:
// every file the tool reads (rules, scenarios, saves, results) is small,
// and an unbounded read of a huge or endless file (a FIFO, /dev/zero)
// would exhaust memory before any check could refuse it. The error names
// the path and the limit.
func ReadFileMax(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %s, the most this file can be", path, FormatBytes(max))
	}
	return data, nil
}

// FormatBytes writes a size in bytes as KiB or MiB when it is a whole
// number of them.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
