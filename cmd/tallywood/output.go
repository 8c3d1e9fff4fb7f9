package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

// output is where a command writes its result: stdout, or the --out file.
// files.open checks the destination before a run starts, so a run of
// hours never ends in "cannot write"; write then puts the result there:
//
//   - a regular file (or a new one) is replaced atomically: the result is
//     written to a temporary file in the same directory, then renamed over
//     it, so the file holds either its old or its new contents, never a
//     mix; a new file gets mode 0644 minus the umask, an existing one keeps
//     its mode;
//   - a symlink is followed: its target is written (as above), the link
//     stays;
//   - the process's standard output or error, however named (/dev/stdout,
//     /dev/fd/2, or the file a shell redirected it to: --out /dev/stdout
//     >> log.txt) is written through its own descriptor, so a redirected
//     file is appended to as the shell asked, never replaced (a rename
//     would lose its earlier lines, and what else the command writes
//     there);
//   - a character device or a FIFO (/dev/null, a named pipe) is written
//     into, never replaced;
//   - a directory, a socket, a block device or a dangling symlink is
//     refused.
type output struct {
	what   string      // the flag that names it ("--out")
	path   string      // --out as given; "" for stdout
	target string      // the file written: path with symlinks resolved
	stream bool        // target is a device or FIFO, or a standard stream: write into it
	into   *os.File    // the standard stream target is, if it is one
	mode   fs.FileMode // the mode a replacement gets
	exists bool        // target held a file before the run
	id     identity    // the file written, a regular or a new one
	stdout io.Writer
	// note, when set, is where write says which file it wrote: a file
	// written silently is easily missed, or looked for elsewhere.
	note io.Writer
}

// tempMarker is in the name of every temporary file of an output, which
// is therefore ".NAME.tallywood-tmp-PID-RANDOM": obviously debris if a
// killed run leaves one, and removed by the next run to the same file
// once process PID is gone.
const tempMarker = ".tallywood-tmp-"

// files are what one command reads and writes. An output may be none of
// the command's inputs and no other of its outputs: writing it would
// replace what the command read (merge --out s1.json s1.json s2.json lost
// shard 1) or another of its results (tune --out and --rules-out on one
// file lost the tuned rules). A file is told by its identity
// (os.SameFile: device and inode), not by its name, so ./r.json, a
// symlink to it and a hard link are all r.json.
type files struct {
	inputs  []input
	outputs []*output
}

// input is a file the command reads: its path, and the flag that names it
// ("" for a command's arguments).
type input struct{ flag, path string }

// read records path, named by flag, as one of the command's inputs. The
// names of the reference rules ("", "default", "reference") are none.
func (f *files) read(flag, path string) {
	if !isReferenceName(path) {
		f.inputs = append(f.inputs, input{flag, path})
	}
}

// readSpecs records the weights files specs score by as inputs.
func (f *files) readSpecs(specs ...policy.Spec) {
	for _, sp := range specs {
		if w := sp.WeightsFile(); w != "" {
			f.read("weights=", w)
		}
	}
}

// identity names a file on disk: the file itself when it exists, else
// the directory it will be made in and its name there.
type identity struct {
	file, dir fs.FileInfo
	base      string
}

func (a identity) same(b identity) bool {
	if a.file != nil || b.file != nil {
		return a.file != nil && b.file != nil && os.SameFile(a.file, b.file)
	}
	return os.SameFile(a.dir, b.dir) && a.base == b.base
}

// clash refuses o, the destination what (a flag) names, when it is one
// of the inputs or of the outputs opened before it.
func (f *files) clash(what string, o *output) error {
	for _, in := range f.inputs {
		st, err := os.Stat(in.path)
		if err != nil || !o.id.same(identity{file: st}) {
			continue // an input that is not there is not read either
		}
		name := fmt.Sprintf("the input file %q", in.path)
		if in.flag != "" {
			name = fmt.Sprintf("the file %s names (%q)", in.flag, in.path)
		}
		return fmt.Errorf("%s %q is %s, which this command reads: writing it would replace that input", what, o.path, name)
	}
	for _, other := range f.outputs {
		if other.path != "" && !other.stream && o.id.same(other.id) {
			return fmt.Errorf("%s %q is the file %s writes (%q): give each output a file of its own", what, o.path, other.what, other.path)
		}
	}
	return nil
}

// writeSave writes a save file of play's s command by the rules of
// --out: it replaces no symlink, FIFO or device, keeps a file's mode, and
// is none of the inputs f records (play --save r.json --rules r.json
// replaced the rules file). Each save replaces the last, so it is checked
// against the inputs only.
func (f *files) writeSave(path string, data []byte, stderr io.Writer) error {
	o, err := f.openSave(path, stderr)
	if err != nil {
		return err
	}
	return o.write(data)
}

// createSave writes a tester's save as a new file: at path, or when path
// is taken, at the first free name of path-2.json, path-3.json, … (its
// extension kept), and returns the name written. It never replaces a
// file, which may hold another tester's finished game: the data is
// written whole under a temporary name, then linked to the new name,
// which fails rather than replace a file made in between.
func (f *files) createSave(path string, data []byte, stderr io.Writer) (string, error) {
	o, err := f.openSave(path, stderr)
	if err != nil {
		return "", err
	}
	if o.stream {
		return path, o.write(data) // a FIFO or a device: nothing to replace
	}
	o.target = path // beside the name given, not a symlink's target
	tf, tmp, err := o.createTemp()
	if err != nil {
		return "", err
	}
	defer o.dropTemp(tmp)
	_, err = tf.Write(data)
	if err == nil {
		err = tf.Sync()
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	ext := filepath.Ext(path)
	for k := 1; k <= maxSaveNames; k++ {
		name := path
		if k > 1 {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), k, ext)
		}
		err := os.Link(tmp, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// A file system without hard links: create the name, if no
			// file has it, and write it.
			err = writeNew(name, data)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
		}
		return name, err
	}
	return "", fmt.Errorf("%q and the names after it, to %q, are all taken", path, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), maxSaveNames, ext))
}

// maxSaveNames bounds the names createSave tries.
const maxSaveNames = 1000

// writeNew writes data to a new file name, failing if it exists.
func writeNew(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// openSave checks a save file as writeSave writes it.
func (f *files) openSave(path string, stderr io.Writer) (*output, error) {
	if path == "" || path == "-" {
		return nil, errors.New("a save file needs a file name")
	}
	each := files{inputs: f.inputs}
	o, err := each.open("save file", path, nil, stderr)
	if err != nil {
		return nil, err
	}
	o.note = nil // play says where it saved, and how to resume
	return o, nil
}

// open checks that path ("" or "-": stdout), the destination of the flag
// what, can be written and is neither an input nor another output of the
// command, and prepares to write it. Messages to stderr say which stale
// temporary files it removed.
func (f *files) open(what, path string, stdout, stderr io.Writer) (*output, error) {
	o := &output{what: what, path: path, stdout: stdout, mode: 0o644, note: stderr}
	if path == "" || path == "-" {
		o.path = ""
		f.outputs = append(f.outputs, o)
		return o, nil
	}
	lst, err := os.Lstat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s %q: %v", what, path, unwrapPath(err))
	}
	o.target = path
	if err == nil {
		st, err := os.Stat(path) // follows a symlink
		if err != nil {
			return nil, fmt.Errorf("%s %q is a symlink whose target cannot be used: %v", what, path, unwrapPath(err))
		}
		if std := standardStream(st); std != nil {
			o.stream, o.exists, o.into = true, true, std
			if st.Mode().IsRegular() {
				// A file the shell redirected a stream to may be an input
				// too (merge a.json --out /dev/stdout >> a.json).
				o.id.file = st
				if err := f.clash(what, o); err != nil {
					return nil, err
				}
			}
			f.outputs = append(f.outputs, o)
			return o, nil
		}
		switch m := st.Mode(); {
		case m.IsDir():
			return nil, fmt.Errorf("%s %q is a directory", what, path)
		case m.IsRegular():
			o.exists, o.mode, o.id.file = true, m.Perm(), st
			if lst.Mode()&fs.ModeSymlink != 0 {
				if o.target, err = filepath.EvalSymlinks(path); err != nil {
					return nil, fmt.Errorf("%s %q is a symlink whose target cannot be used: %v", what, path, unwrapPath(err))
				}
			}
		case m&fs.ModeNamedPipe != 0, m&fs.ModeCharDevice != 0:
			// Written into, never replaced: no input is one (the reader
			// reads regular files only).
			o.stream, o.exists = true, true
			f.outputs = append(f.outputs, o)
			return o, nil
		default:
			return nil, fmt.Errorf("%s %q is neither a file, a FIFO nor a character device (%v)", what, path, m.Type())
		}
	}
	dir := filepath.Dir(o.target)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s %q: directory %q does not exist", what, path, dir)
	}
	if !o.exists {
		o.id.dir, o.id.base = st, filepath.Base(o.target)
	}
	if err := f.clash(what, o); err != nil {
		return nil, err
	}
	for _, stale := range removeStaleTemps(o.target) {
		fmt.Fprintf(stderr, "tallywood: removed %q, left by a run that was killed while writing %q\n", stale, path)
	}
	// Create and remove a temporary file now: the directory is writable
	// if and only if this works.
	tf, tmp, err := o.createTemp()
	if err != nil {
		return nil, fmt.Errorf("%s %q cannot be written: %v", what, path, unwrapPath(err))
	}
	tf.Close()
	o.dropTemp(tmp)
	f.outputs = append(f.outputs, o)
	return o, nil
}

// standardStreams are the process's standard output and error, which
// /dev/stdout and /dev/stderr name; tests replace them.
var standardStreams = func() []*os.File { return []*os.File{os.Stdout, os.Stderr} }

// standardStream returns the standard stream that st (a path's file) is,
// or nil. Reopening it by name would start at its first byte and drop the
// shell's append, and renaming over it would replace the file the shell
// opened: so it is written through the stream's own descriptor, at the
// stream's own position.
func standardStream(st fs.FileInfo) *os.File {
	for _, f := range standardStreams() {
		if f == nil {
			continue
		}
		if fst, err := f.Stat(); err == nil && os.SameFile(st, fst) {
			return f
		}
	}
	return nil
}

// unwrapPath drops the operation and path of a *PathError, which the
// message around it names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// name is the destination for messages: the --out file, or stdout.
func (o *output) name() string {
	if o.path == "" {
		return "stdout"
	}
	return strconv.Quote(o.path)
}

// writeFailed reports a failed write and returns exitFailed. A failed
// write to stdout is reported once, by run, which checks every write.
func (o *output) writeFailed(cmd string, err error, stderr io.Writer) int {
	if o.path == "" {
		return exitFailed
	}
	return failRun(stderr, "%s: writing %s: %v", cmd, o.name(), unwrapPath(err))
}

// result writes data, cmd's result rendered, and returns the exit code.
// A partial result (interrupted), which holds what ("12 games"), says on
// stderr where it now is and exits 1: every command that writes a result,
// merge too, says it in these words.
func (o *output) result(cmd string, data []byte, partial bool, what string, stderr io.Writer) int {
	if partial {
		o.note = nil // the message below names the file, and what it holds
	}
	if err := o.write(data); err != nil {
		return o.writeFailed(cmd, err, stderr)
	}
	if !partial {
		return exitOK
	}
	gone := ""
	if o.exists && !o.stream {
		gone = "; its previous contents are gone"
	}
	fmt.Fprintf(stderr, "tallywood: %s: interrupted: %s now holds a partial result (%s, marked interrupted)%s\n", cmd, o.name(), what, gone)
	return exitFailed
}

// writeStudy writes cmd's result s, called name in the report ("this
// run"), in format to out: json as sim encodes every result, the others
// (table: text, csv, html) as the report package writes them. A partial
// result says on stderr where it now is and exits 1.
func writeStudy(cmd string, s sim.Study, name, format string, opt report.TextOptions, out *output, stderr io.Writer) int {
	src := report.Source{Name: reportName(cmd, name), Study: s}
	var b bytes.Buffer
	var err error
	switch format {
	case "json":
		b.Write(sim.Encode(s))
	case "csv":
		err = report.CSV(&b, src)
	case "html":
		var page []byte
		page, err = renderReport(src)
		b.Write(page)
	default:
		err = report.Text(&b, src, opt)
	}
	if err != nil {
		return failRun(stderr, "%v", err)
	}
	return out.result(cmd, b.Bytes(), src.Interrupted(), src.Played(), stderr)
}

// write writes data to the destination.
func (o *output) write(data []byte) error {
	switch {
	case o.path == "":
		_, err := o.stdout.Write(data)
		return err
	case o.into != nil:
		_, err := o.into.Write(data)
		return err
	case o.stream:
		f, err := os.OpenFile(o.target, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	f, tmp, err := o.createTemp()
	if err != nil {
		return err
	}
	defer o.dropTemp(tmp) // after the rename there is nothing to remove
	_, err = f.Write(data)
	if err == nil && o.exists {
		err = f.Chmod(o.mode)
	}
	if err == nil {
		err = f.Sync() // the data is on disk before the name points at it
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.target)
	}
	if err == nil && o.note != nil {
		fmt.Fprintf(o.note, "tallywood: wrote %s\n", o.path)
	}
	return err
}

// createTemp creates a new temporary file beside the target, mode 0644
// minus the umask, and registers it for removal by a second Ctrl-C.
func (o *output) createTemp() (*os.File, string, error) {
	var r [6]byte
	rand.Read(r[:])
	dir, base := filepath.Split(o.target)
	tmp := filepath.Join(dir, "."+base+tempMarker+strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(r[:]))
	pending.Lock()
	defer pending.Unlock()
	if pending.quitting {
		return nil, "", errors.New("quitting")
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, "", err
	}
	pending.paths[tmp] = true
	return f, tmp, nil
}

// dropTemp removes a temporary file if it is still there.
func (o *output) dropTemp(tmp string) {
	pending.Lock()
	defer pending.Unlock()
	os.Remove(tmp)
	delete(pending.paths, tmp)
}

// pending are the temporary files being written; a second Ctrl-C, which
// exits at once, removes them first.
var pending = struct {
	sync.Mutex
	paths    map[string]bool
	quitting bool // no new temporary files: the process is exiting
}{paths: map[string]bool{}}

// removePending removes every temporary file being written, and refuses
// new ones, before the process exits.
func removePending() {
	pending.Lock()
	defer pending.Unlock()
	pending.quitting = true
	for p := range pending.paths {
		os.Remove(p)
		delete(pending.paths, p)
	}
}

// removeStaleTemps removes the temporary files of target whose process is
// gone (killed while writing) and returns their names. It is called before
// this process creates any, and only sees the processes of this machine: a
// run elsewhere writing the same file through a shared directory would
// lose its temporary file, but two runs writing one file conflict anyway.
func removeStaleTemps(target string) []string {
	dir, base := filepath.Split(target)
	matches, _ := filepath.Glob(filepath.Join(dir, "."+escapeGlob(base)+tempMarker+"*"))
	var removed []string
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), "."+base+tempMarker)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		// This process has no temporary file yet, so one with its PID was
		// left by an earlier process of that PID (a container restarted).
		if !ok || err != nil || pid <= 0 || (pid != os.Getpid() && processAlive(pid)) {
			continue
		}
		if os.Remove(m) == nil {
			removed = append(removed, m)
		}
	}
	return removed
}

// processAlive reports whether process pid exists (signal 0 checks
// without sending anything; EPERM means it exists under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// escapeGlob escapes the pattern characters of a file name.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
