package deal

import (
	"runtime/debug"
	"sync"
)

// BuildInfo is what the running binary says about its own build: the
// module version and the version-control revision it was built from.
type BuildInfo struct {
	Module   string // module version: "v1.2.3", or "(devel)" for a build from a checkout
	Revision string // VCS revision, "" when the build did not record one (go test, go run of a non-repository)
	Modified bool   // the working tree had uncommitted changes
	Time     string // commit time (RFC 3339), "" when unknown
	Go       string // Go version that built the binary
}

// String is the version recorded in every result: the module version,
// then the first 12 digits of the revision, with "+dirty" for a build
// from a modified tree. Two results of the same string came from the same
// code (a dirty tree aside).
func (b BuildInfo) String() string {
	s := b.Module
	if b.Revision != "" {
		rev := b.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " " + rev
		if b.Modified {
			s += "+dirty"
		}
	}
	return s
}

var build = sync.OnceValue(func() BuildInfo {
	b := BuildInfo{Module: "(unknown)"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Module, b.Go = info.Main.Version, info.GoVersion
	if b.Module == "" {
		b.Module = "(devel)"
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			b.Time = s.Value
		}
	}
	return b
})

// Build returns the build information of the running binary.
func Build() BuildInfo { return build() }

// Version is Build().String(): what results record as tallywood_version.
func Version() string { return build().String() }
