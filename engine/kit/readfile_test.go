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

// TestReadFileIn: a file another file names is read inside its folder
// only: no absolute path, no .., no symlink leading out; and as
// ReadFileMax reads, a regular file within its bound.
func TestReadFileIn(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	os.Mkdir(filepath.Join(in, "sub"), 0o755)
	os.WriteFile(filepath.Join(in, "sub", "ok.json"), []byte(strings.Repeat("x", 1024)), 0o644)
	os.WriteFile(filepath.Join(in, "big.json"), []byte(strings.Repeat("x", 1025)), 0o644)
	os.WriteFile(filepath.Join(dir, "outside.json"), []byte("{}"), 0o644)
	os.Symlink(filepath.Join(dir, "outside.json"), filepath.Join(in, "out.json"))
	os.Symlink("sub/ok.json", filepath.Join(in, "inside.json"))
	if err := syscall.Mkfifo(filepath.Join(in, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{
		{"sub/ok.json", ""},
		{"inside.json", ""}, // a symlink that stays inside
		{"/etc/passwd", ErrNotLocal.Error()},
		{"../outside.json", ErrNotLocal.Error()},
		{"sub/../../outside.json", ErrNotLocal.Error()},
		{"out.json", "cannot be read: path escapes from parent"},
		{"fifo", "is not a regular file (p---------)"},
		{"sub", "is not a regular file (d---------)"},
		{"big.json", "is larger than 1 KiB, the most a test file can be"},
		{"none.json", "cannot be read: no such file or directory"},
	} {
		data, err := ReadFileIn(in, tt.name, 1024, "a test file")
		switch {
		case tt.want == "" && (err != nil || len(data) != 1024):
			t.Errorf("%s: %d bytes, error %v; want 1024 bytes", tt.name, len(data), err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// FuzzReadFileIn: whatever name a file gives (an outcomes CSV's rules
// column, a scenario's rules), ReadFileIn reads a file inside its folder
// or refuses it: never the file outside, reached by an absolute path, ..,
// a symlink or any spelling of them, and its error never holds that
// file's contents.
func FuzzReadFileIn(f *testing.F) {
	dir := f.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	os.Mkdir(filepath.Join(in, "sub"), 0o755)
	os.WriteFile(filepath.Join(in, "sub", "ok.json"), []byte("inside"), 0o644)
	secret := filepath.Join(dir, "secret.json")
	os.WriteFile(secret, []byte("SECRET"), 0o644)
	os.Symlink(secret, filepath.Join(in, "out.json"))
	os.Symlink("../secret.json", filepath.Join(in, "sub", "up.json"))
	os.Symlink("sub/ok.json", filepath.Join(in, "inside.json"))
	for _, name := range []string{"sub/ok.json", "inside.json", "out.json", "sub/up.json", "../secret.json", secret,
		"sub/../../secret.json", "./sub/./ok.json", "sub//ok.json", "/proc/self/environ", "", ".", "sub/"} {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		data, err := ReadFileIn(in, name, 1024, "a rules file")
		if err != nil {
			if strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("%q: the error %q tells the outside file's contents", name, err)
			}
			return
		}
		if string(data) != "inside" {
			t.Fatalf("%q read %q, not the file inside the folder", name, data)
		}
	})
}
