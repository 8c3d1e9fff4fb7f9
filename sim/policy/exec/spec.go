package exec

import (
	"errors"
	"fmt"
	osexec "os/exec"
	"strings"
	"time"

	"tallywood/sim/policy"
)

// DefaultTimeout is how long the harness waits for an answer to a
// decision unless the spec sets timeout=.
const DefaultTimeout = 10 * time.Second

// maxTimeout bounds timeout=: beyond an hour a hung program is no longer
// told from a slow one.
const maxTimeout = time.Hour

func init() {
	policy.Register("exec", "an outside program speaking the protocol of docs/protocol.md: exec:COMMAND[,timeout=DUR]",
		[]policy.Param{{Name: "timeout", Default: DefaultTimeout.String(), Help: "longest wait for one answer (Go duration: 500ms, 2s)"}},
		parseSpec)
}

// config is a parsed exec spec.
type config struct {
	command string   // as written, for the canonical spec and messages
	argv    []string // the command split into words
	timeout time.Duration
}

// parseSpec reads what follows "exec:": COMMAND[,timeout=DUR]. The
// command ends at the first comma outside quotes; the pieces after it are
// key=value options.
func parseSpec(rest string) (policy.Spec, error) {
	cfg, err := parseConfig(rest)
	if err != nil {
		return policy.Spec{}, err
	}
	if _, err := osexec.LookPath(cfg.argv[0]); err != nil {
		return policy.Spec{}, fmt.Errorf("exec: command %q: %v", cfg.argv[0], unwrapExec(err))
	}
	canon := "exec:" + cfg.command
	params := map[string]string{"command": cfg.command, "timeout": cfg.timeout.String()}
	if cfg.timeout != DefaultTimeout {
		canon += ",timeout=" + cfg.timeout.String()
	}
	return policy.Spec{Name: "exec", Params: params, Label: canon, New: func() policy.Policy { return newPolicy(cfg) }}, nil
}

// unwrapExec drops os/exec's repetition of the command name.
func unwrapExec(err error) error {
	var e *osexec.Error
	if errors.As(err, &e) {
		return e.Err
	}
	return err
}

func parseConfig(rest string) (config, error) {
	cut := policy.NextComma(rest)
	cfg := config{command: strings.TrimSpace(rest[:cut]), timeout: DefaultTimeout}
	argv, err := splitWords(cfg.command)
	if err != nil {
		return config{}, fmt.Errorf("exec: command %q: %v", cfg.command, err)
	}
	if len(argv) == 0 {
		return config{}, errors.New("exec: no command (exec:COMMAND[,timeout=DUR])")
	}
	cfg.argv = argv
	if cut == len(rest) {
		return cfg, nil
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(rest[cut+1:], ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return config{}, fmt.Errorf("exec: %q is not key=value (a comma in the command must be quoted)", kv)
		}
		if seen[k] {
			return config{}, fmt.Errorf("exec: parameter %q given twice", k)
		}
		seen[k] = true
		switch k {
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 || d > maxTimeout {
				return config{}, fmt.Errorf("exec: timeout %q is not a duration between 0 and %s (e.g. 500ms, 2s)", v, maxTimeout)
			}
			cfg.timeout = d
		default:
			return config{}, fmt.Errorf("exec: no parameter %q (known: timeout)", k)
		}
	}
	return cfg, nil
}

// splitWords splits a command line into words as a POSIX shell does,
// without running one: blanks separate words; '...' keeps everything
// literally; "..." keeps everything but \" and \\, which it unescapes; a
// backslash outside quotes escapes the next character. There are no
// variables, globs, pipes or redirections.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case '\\':
			if i+1 == len(s) {
				return nil, errors.New("ends in a backslash")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, errors.New(`unterminated " quote`)
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
