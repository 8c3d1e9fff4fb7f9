package exec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"time"
)

// maxLine bounds a line from the program: an answer is a few dozen bytes,
// anything near this is garbage.
const maxLine = 64 << 10

// closeGrace is how long a program may take to exit after its input is
// closed before it is killed, and how long it may take to exit after it
// closed its output.
const closeGrace = time.Second

// proc is one running program. The harness writes to in and reads from
// out with deadlines, so no goroutine waits on the program; stop kills
// its process group and reaps it exactly once, from whichever goroutine
// gets there first.
type proc struct {
	cmd    *osexec.Cmd
	in     *os.File // the program's stdin, our end
	out    *os.File // the program's stdout, our end
	errR   *os.File // the program's stderr, our end, copied into stderr
	r      *bufio.Reader
	stderr *tail
	name   string // the program's name, from the handshake
	rules  string // the rules hash of the handshake
	games  int    // games started with it

	exit    chan struct{} // closed when the program has exited: waitErr holds how
	errDone chan struct{} // closed when the copy of its stderr ends
	waitErr error
	once    sync.Once
}

// start runs argv with its stdin, stdout and stderr on pipes, stderr kept
// in a tail buffer for error messages. Every end the program gets is an
// *os.File, so Wait returns when the program exits, whatever its children
// hold; one goroutine waits for the exit and one copies stderr.
func start(argv []string) (*proc, error) {
	var ends [6]*os.File // in R, W; out R, W; err R, W
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			for _, f := range ends[:i] {
				f.Close()
			}
			return nil, err
		}
		ends[i], ends[i+1] = r, w
	}
	p := &proc{in: ends[1], out: ends[2], errR: ends[4], r: bufio.NewReaderSize(ends[2], maxLine), stderr: &tail{},
		exit: make(chan struct{}), errDone: make(chan struct{})}
	p.cmd = osexec.Command(argv[0], argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = ends[0], ends[3], ends[5]
	setGroup(p.cmd)
	err := p.cmd.Start()
	ends[0].Close()
	ends[3].Close()
	ends[5].Close()
	if err != nil {
		p.in.Close()
		p.out.Close()
		p.errR.Close()
		return nil, unwrapExec(err)
	}
	running.Lock()
	running.procs[p] = true
	running.Unlock()
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exit)
	}()
	go func() {
		io.Copy(p.stderr, p.errR)
		close(p.errDone)
	}()
	return p, nil
}

// send writes msg as one line, giving up after timeout (a program that
// does not read its input fills the pipe).
func (p *proc) send(msg any, timeout time.Duration) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.in.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the program did not read its input within %s", timeout)
		}
		return p.exited("reading its input", "input")
	}
	return nil
}

// receive reads one line, waiting at most timeout.
func (p *proc) receive(timeout time.Duration) ([]byte, error) {
	p.out.SetReadDeadline(time.Now().Add(timeout))
	line, err := p.r.ReadSlice('\n')
	switch {
	case err == nil:
		return bytes.TrimSpace(line), nil
	case errors.Is(err, os.ErrDeadlineExceeded) && len(line) > 0:
		// Begun but not ended: a line that might have run past maxLine,
		// had the program written it faster, is no "no answer".
		return nil, fmt.Errorf("answer %s has no end of line after %s (%d bytes so far)", quoteLine(line), timeout, len(line))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("no answer within %s", timeout)
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("answer %s is longer than %d bytes", quoteLine(line), maxLine)
	case errors.Is(err, os.ErrClosed):
		return nil, errors.New("the program was stopped (the run is ending)")
	}
	if len(line) > 0 {
		return nil, fmt.Errorf("answer %s has no end of line before the program closed its output", quoteLine(line))
	}
	return nil, p.exited("answering", "output")
}

// exitedError is the error of a program that stopped talking: it exited,
// or closed its end of a pipe.
type exitedError struct{ msg string }

func (e *exitedError) Error() string { return e.msg }

// exited stops the program after it closed its end ("input" or "output")
// of a pipe and says what happened, with the end of what it wrote to
// stderr: it exited, and how, or it closed the pipe but did not exit
// within closeGrace (not "exited (signal: killed)", which blames it
// for the kill that ends it).
func (p *proc) exited(doing, end string) error {
	var msg string
	select {
	case <-p.exit:
		msg = "the program exited"
		if err := p.stop(false); err != nil {
			msg += " (" + err.Error() + ")"
		}
		msg += " before " + doing
	case <-time.After(closeGrace):
		p.stop(false)
		msg = fmt.Sprintf("the program closed its %s before %s but did not exit within %s; it was stopped", end, doing, closeGrace)
	}
	if t := p.stderr.last(); t != "" {
		msg += "; its stderr ends: " + t
	}
	return &exitedError{msg}
}

// stop ends the program once and reaps it. graceful closes its input and
// gives it closeGrace to exit. Then, whether it exited or not, its process
// group is killed: nothing the program started outlives it (a child on
// /dev/null would survive every normal run if the group were killed only
// after the grace). A group that still has members keeps its id
// reserved, so the kill after the leader's exit reaches no one else. It
// returns the program's exit error, if any.
func (p *proc) stop(graceful bool) error {
	p.once.Do(func() {
		running.Lock()
		delete(running.procs, p)
		running.Unlock()
		p.in.Close()
		if graceful {
			select {
			case <-p.exit:
			case <-time.After(closeGrace):
			}
		}
		killGroup(p.cmd)
		<-p.exit
		// The group is dead, and with it every writer of stderr but one
		// that left the group (setsid): it is not waited for.
		select {
		case <-p.errDone:
		case <-time.After(closeGrace):
		}
		p.errR.Close()
		<-p.errDone
		p.out.Close()
	})
	return p.waitErr
}

// running are the programs started and not yet stopped: KillAll's.
var running = struct {
	sync.Mutex
	procs map[*proc]bool
}{procs: map[*proc]bool{}}

// KillAll kills the process group of every program started and not yet
// stopped, for a harness about to exit without stopping them (a second
// Ctrl-C): the death signal reaches a program, not what it started.
// Programs started after it are not killed.
func KillAll() {
	running.Lock()
	defer running.Unlock()
	for p := range running.procs {
		killGroup(p.cmd)
	}
}

// quoteLine quotes a line from the program for an error message, cut to
// a readable length.
func quoteLine(b []byte) string {
	const max = 80
	s := strings.TrimRight(string(b), "\r\n")
	if len(s) > max {
		return fmt.Sprintf("%q…", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

// tail keeps the end of what the program writes to stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2048

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

// last returns the last non-empty line written, quoted.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	if s := strings.TrimSpace(lines[len(lines)-1]); s != "" {
		return quoteLine([]byte(s))
	}
	return ""
}
