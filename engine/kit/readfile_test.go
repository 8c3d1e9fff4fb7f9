package kit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	os.WriteFile(exact, []byte(strings.Repeat("x", 1024)), 0o644)
	os.WriteFile(over, []byte(strings.Repeat("x", 1025)), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(exact, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string // error, "" for none
	}{
		{exact, ""},
		{link, ""}, // a symlink to a regular file is read
		{over, over + ": larger than 1 KiB, the most this file can be"},
		// Neither an endless device nor a FIFO, which would wait for a
		// writer, is opened; nor is a directory.
		{"/dev/zero", "/dev/zero is a device, not a regular file"},
		{fifo, fifo + " is a FIFO (named pipe), not a regular file"},
		{dir, dir + " is a directory, not a regular file"},
		{filepath.Join(dir, "none"), "open " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, tt := range tests {
		type read struct {
			data []byte
			err  error
		}
		done := make(chan read, 1)
		go func() {
			data, err := ReadFileMax(tt.path, 1024)
			done <- read{data, err}
		}()
		var r read
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10s", tt.path)
		}
		switch {
		case tt.want == "" && (r.err != nil || len(r.data) != 1024):
			t.Errorf("%s: %d bytes, error %v; want 1024 bytes", tt.path, len(r.data), r.err)
		case tt.want != "" && (r.err == nil || r.err.Error() != tt.want):
			t.Errorf("%s: error %v, want %q", tt.path, r.err, tt.want)
		}
	}
	for _, tt := range []struct {
		n    int64
		want string
	}{{1 << 20, "1 MiB"}, {32 << 20, "32 MiB"}, {2048, "2 KiB"}, {1000, "1000 bytes"}} {
		if got := FormatBytes(tt.n); got != tt.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
