package exec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
// closed before it is killed.
const closeGrace = time.Second

// proc is one running program. The harness writes to in and reads from
// out with deadlines, so no goroutine waits on the program; stop kills
// and reaps it exactly once, from whichever goroutine gets there first.
type proc struct {
	cmd    *osexec.Cmd
	in     *os.File // the program's stdin, our end
	out    *os.File // the program's stdout, our end
	r      *bufio.Reader
	stderr *tail
	name   string // the program's name, from the handshake
	rules  string // the rules hash of the handshake

	once    sync.Once
	waitErr error
}

// start runs argv with its stdin and stdout on pipes and its stderr kept
// in a tail buffer for error messages.
func start(argv []string) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &proc{in: inW, out: outR, r: bufio.NewReaderSize(outR, maxLine), stderr: &tail{}}
	p.cmd = osexec.Command(argv[0], argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	// A program that leaves a child holding its stderr must not keep
	// Wait waiting for the copy.
	p.cmd.WaitDelay = closeGrace
	setGroup(p.cmd)
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, unwrapExec(err)
	}
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
		return p.exited("reading its input")
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
	return nil, p.exited("answering")
}

// exited stops the program after it stopped talking and says how it
// ended, with the end of what it wrote to stderr.
func (p *proc) exited(doing string) error {
	err := p.stop(false)
	msg := "the program exited"
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	msg += " before " + doing
	if t := p.stderr.last(); t != "" {
		msg += "; its stderr ends: " + t
	}
	return errors.New(msg)
}

// stop ends the program once and reaps it. graceful closes its input and
// gives it closeGrace to exit; otherwise, or after that, its process group
// is killed. It returns the program's exit error, if any.
func (p *proc) stop(graceful bool) error {
	p.once.Do(func() {
		p.in.Close()
		if graceful {
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			select {
			case p.waitErr = <-done:
			case <-time.After(closeGrace):
				killGroup(p.cmd)
				p.waitErr = <-done
			}
		} else {
			killGroup(p.cmd)
			p.waitErr = p.cmd.Wait()
		}
		p.out.Close()
	})
	return p.waitErr
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
