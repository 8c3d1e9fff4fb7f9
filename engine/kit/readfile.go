package kit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ReadFileMax reads the regular file at path, refusing anything else and
// a file larger than max bytes. Every file the tool reads (rules,
// scenarios, saves, results, weights) is a small regular file: opening a
// FIFO waits for a writer that may never come, a device or an endless
// file (/dev/zero) would be read until the bound, and neither is a file
// anyone means to name. The error names the path, and the limit or what
// the path is.
func ReadFileMax(path string, max int64) ([]byte, error) {
	// Stat before opening, so that nothing but a regular file is opened
	// (a path that cannot be stat'ed is opened for open's own error); the
	// open cannot block either (openFlags), should the path be replaced in
	// between, and the file opened must be the one checked.
	st, statErr := os.Stat(path)
	if statErr == nil {
		if err := regular(path, st); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := regular(path, fst); err != nil {
		return nil, err
	}
	if statErr == nil && !os.SameFile(st, fst) {
		return nil, fmt.Errorf("%s: replaced while it was being opened", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return data, nil
}

// TooLargeError is ReadFileMax's error for a file larger than Max bytes.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %s, the most this file can be", e.Path, FormatBytes(e.Max))
}

// regular refuses a file that is not a regular one, naming what it is.
func regular(path string, st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s is %s, not a regular file", path, what)
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

// ErrNotLocal is ReadFileIn's error for a name that is not a path inside
// its folder: an absolute path, or one that leads up (..).
var ErrNotLocal = errors.New("is not a path inside the folder (no absolute path, no ..)")

// ReadFileIn reads the regular file name inside the folder dir, of at
// most max bytes, for the files another file names (a scenario's rules
// file, an outcomes CSV's): that file may come from anyone, so what it
// names stays in its folder. dir is opened as an os.Root, so neither ..
// nor a symlink leads out of it (/etc/shadow, whose first byte an error
// would tell), and what is not a regular file is refused before it is
// opened (a FIFO would wait for a writer, /dev/zero be read until the
// bound). The error follows the quoted name ("big.json" is larger than
// 1 MiB, the most what can be); ErrNotLocal for a name not inside.
func ReadFileIn(dir, name string, max int64, what string) ([]byte, error) {
	if !filepath.IsLocal(name) {
		return nil, ErrNotLocal
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", unwrapPath(err))
	}
	defer root.Close()
	st, err := root.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (%v)", st.Mode().Type())
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", unwrapPath(err))
	}
	defer f.Close()
	if fst, err := f.Stat(); err != nil || !os.SameFile(st, fst) {
		return nil, errors.New("was replaced while it was being opened")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", unwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("is larger than %s, the most %s can be", FormatBytes(max), what)
	}
	return data, nil
}

// unwrapPath drops the operation and path of a *fs.PathError: the
// message names the file already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
