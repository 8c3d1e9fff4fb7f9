package kit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	os.WriteFile(exact, []byte(strings.Repeat("x", 1024)), 0o644)
	os.WriteFile(over, []byte(strings.Repeat("x", 1025)), 0o644)
	tests := []struct {
		path string
		want string // error, "" for none
	}{
		{exact, ""},
		{over, over + ": larger than 1 KiB, the most this file can be"},
		// An endless file stops at the bound instead of filling memory.
		{"/dev/zero", "/dev/zero: larger than 1 KiB, the most this file can be"},
		{filepath.Join(dir, "none"), "open " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, tt := range tests {
		data, err := ReadFileMax(tt.path, 1024)
		switch {
		case tt.want == "" && (err != nil || len(data) != 1024):
			t.Errorf("%s: %d bytes, error %v; want 1024 bytes", tt.path, len(data), err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: error %v, want %q", tt.path, err, tt.want)
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
