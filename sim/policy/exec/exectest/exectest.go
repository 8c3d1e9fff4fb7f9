// Package exectest turns a test binary into player programs of the exec
// protocol (docs/protocol.md) for tests: run as "TESTBINARY fakeplayer
// MODE [PIDFILE]" it speaks the protocol instead of running tests.
// Players written in Go start in milliseconds and need no interpreter, so
// tests of programs that crash, hang or answer nonsense run anywhere, and
// fast. A test package's TestMain calls Main first; Spec names a player.
// PlayForking and RequireGone serve the tests of what stops a program and
// what it started (processes.go).
//
// It speaks the protocol from its messages' JSON alone, as an outside
// program does, and imports nothing of package exec, whose own tests use
// it too.
package exectest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"time"

	"tallywood/sim/deal"
)

// Main plays the fake player the arguments ask for and exits, or returns
// when they ask for none.
func Main() {
	if len(os.Args) >= 3 && os.Args[1] == "fakeplayer" {
		pidFile := ""
		if len(os.Args) >= 4 {
			pidFile = os.Args[3]
		}
		os.Exit(play(os.Args[2], pidFile))
	}
}

// Spec is the exec spec of the fake player mode (see play), writing its
// process id to pidFile unless it is "", with the spec's options opts
// (e.g. "timeout=1s") unless "".
func Spec(mode, pidFile, opts string) string {
	s := fmt.Sprintf("exec:'%s' fakeplayer %s", os.Args[0], mode)
	if pidFile != "" {
		s += " '" + pidFile + "'"
	}
	if opts != "" {
		s += "," + opts
	}
	return s
}

// FailDecision is the decision at which a faulty fake player misbehaves,
// in the games it fails (FailsPlayer).
const FailDecision = 5

// FailsPlayer tells the games a faulty fake player fails, by their
// player seed, which is all the program knows of a game: about a quarter
// of them.
func FailsPlayer(playerSeed uint64) bool { return playerSeed%4 == 3 }

// FailsGame tells the solo games a faulty fake player fails, by their
// game seed (a solo game's policy is reset with its game seed).
func FailsGame(gameSeed uint64) bool { return FailsPlayer(deal.ProgramSeed(gameSeed)) }

// play plays mode:
//
//	first      answers the first option
//	random     answers an option drawn by a generator seeded by the
//	           player seed (testdata/protocol/random_player.py's play)
//	crash      exits with status 3 (after a line on stderr)   } at decision
//	hang       stops answering                                } FailDecision
//	garbage    answers a line that is not JSON                } of the games
//	illegal    answers an id that is not among the options    } FailsPlayer
//	longline   answers a line of 64 MiB, written at once        }
//	slowline   writes an answer of ever more bytes, 4 KiB every }
//	           100 ms, with no end of line                      }
//	spawn      starts a child that holds its output, then hangs } picks
//	closeout   closes its output, then hangs                  }
//	hangnow    stops answering at the first decision of any game
//	fork       starts a child on /dev/null at the handshake (in its
//	           process group), then answers the first option
//	endexit    answers the first option and exits after each end
//	nohello    exits before the handshake
//	oldproto   answers the handshake with protocol 0
//	record:F   asks for the rules, answers the first option and appends
//	           every line it reads to F
//	sleep      sleeps (the child of spawn)
//
// A player that plays answers the handshake with the harness's protocol
// version.
func play(mode, pidFile string) int {
	if pidFile != "" {
		f, err := os.OpenFile(pidFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return 10
		}
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "nohello":
		fmt.Fprintln(os.Stderr, "fake player: no handshake today")
		return 4
	}
	var record *os.File
	if file, ok := strings.CutPrefix(mode, "record:"); ok {
		f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return 10
		}
		defer f.Close()
		record, mode = f, "first"
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	answer := func(id string) { send(map[string]string{"type": "answer", "id": id}) }
	var seed uint64
	var rng *rand.Rand
	for in.Scan() {
		line := in.Bytes()
		if record != nil {
			record.Write(append(line, '\n'))
		}
		var msg struct {
			Type     string
			Protocol int
			Seed     uint64 `json:"player_seed"`
			N        int
			Options  []struct{ ID string }
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return 11
		}
		switch msg.Type {
		case "hello":
			proto := msg.Protocol
			if mode == "oldproto" {
				proto = 0
			}
			if mode == "fork" {
				// The parent records the child's pid: a run of one short
				// game can end, and kill the group, before the child
				// is far enough along to write it itself.
				child := osexec.Command(os.Args[0], "fakeplayer", "sleep", "")
				if child.Start() == nil { // stdio on /dev/null: nothing tells it the run ended
					if f, err := os.OpenFile(pidFile+".child", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
						fmt.Fprintln(f, child.Process.Pid)
						f.Close()
					}
				}
			}
			send(struct {
				Type      string `json:"type"`
				Protocol  int    `json:"protocol"`
				Name      string `json:"name"`
				WantRules bool   `json:"rules,omitempty"`
			}{"hello", proto, "fake " + mode, record != nil})
		case "game":
			seed = msg.Seed
			rng = rand.New(rand.NewPCG(seed, 0))
		case "end":
			if mode == "endexit" {
				return 0
			}
		case "decision":
			if mode == "hangnow" {
				time.Sleep(time.Hour)
			}
			if msg.N == FailDecision && FailsPlayer(seed) {
				switch mode {
				case "crash":
					fmt.Fprintln(os.Stderr, "fake player: crashing as asked")
					return 3
				case "hang":
					time.Sleep(time.Hour)
				case "spawn":
					child := osexec.Command(os.Args[0], "fakeplayer", "sleep", pidFile+".child")
					child.Stdout = os.Stdout
					child.Start()
					time.Sleep(time.Hour)
				case "closeout":
					os.Stdout.Close()
					time.Sleep(time.Hour)
				case "garbage":
					out.WriteString("this is not JSON\n")
					out.Flush()
					continue
				case "illegal":
					answer("nope/" + strconv.Itoa(msg.N) + "/0/0")
					continue
				case "longline":
					out.WriteString(strings.Repeat("x", 64<<20) + "\n")
					out.Flush()
					continue
				case "slowline":
					for {
						out.WriteString(strings.Repeat("x", 4<<10))
						out.Flush()
						time.Sleep(100 * time.Millisecond)
					}
				}
			}
			if mode == "random" {
				answer(msg.Options[rng.IntN(len(msg.Options))].ID)
				continue
			}
			answer(msg.Options[0].ID)
		}
	}
	return 0
}
