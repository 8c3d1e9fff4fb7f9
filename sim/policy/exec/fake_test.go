package exec

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// The test binary doubles as the players of the tests: run as
// "TESTBINARY fakeplayer MODE [PIDFILE]" it speaks the protocol instead of
// running tests. Players written in Go start in milliseconds and need no
// interpreter, so the fault tests run anywhere.

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "fakeharness" {
		os.Exit(fakeHarness(os.Args[2]))
	}
	if len(os.Args) >= 3 && os.Args[1] == "fakeplayer" {
		pidFile := ""
		if len(os.Args) >= 4 {
			pidFile = os.Args[3]
		}
		os.Exit(fakePlayer(os.Args[2], pidFile))
	}
	os.Exit(m.Run())
}

// failDecision is the decision at which a faulty fake player misbehaves,
// in the games it fails (failsGame).
const failDecision = 5

// failsGame tells the games a faulty fake player fails: about a quarter
// of them (3 of the 9 short games, 5 of the 24), chosen by the player
// seed, which is all the program knows of a game (failsPlayer), so that
// the tests can play the others without it. seed is the game seed, which
// is the policy's in solo.
func failsGame(seed uint64) bool { return failsPlayer(deal.ProgramSeed(seed)) }

func failsPlayer(playerSeed uint64) bool { return playerSeed%4 == 3 }

// fakeSpec is the exec spec of a fake player.
func fakeSpec(mode, pidFile, opts string) string {
	s := fmt.Sprintf("exec:'%s' fakeplayer %s", os.Args[0], mode)
	if pidFile != "" {
		s += " '" + pidFile + "'"
	}
	if opts != "" {
		s += "," + opts
	}
	return s
}

// fakePlayer plays mode:
//
//	first      answers the first option
//	crash      exits with status 3 (after a line on stderr)   } at decision
//	hang       stops answering                                } failDecision
//	hangnow    stops answering at the first decision of any game
//	garbage    answers a line that is not JSON                } of the games
//	illegal    answers an id that is not among the options    } failsGame picks
//	spawn      starts a child that holds its output, then hangs }
//	closeout   closes its output, then hangs                  }
//	fork       starts a child on /dev/null at the handshake (in its
//	           process group), then answers the first option
//	endexit    answers the first option and exits after each end
//	nohello    exits before the handshake
//	oldproto   answers the handshake with protocol 0
//	record:F   asks for the rules, answers the first option and appends
//	           every line it reads to F
//	sleep      sleeps (the child of spawn)
func fakePlayer(mode, pidFile string) int {
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
	var seed uint64
	for in.Scan() {
		line := in.Bytes()
		if record != nil {
			record.Write(append(line, '\n'))
		}
		var msg struct {
			Type    string
			Seed    uint64 `json:"player_seed"`
			N       int
			Options []OptionMsg
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return 11
		}
		switch msg.Type {
		case "hello":
			proto := ProtocolVersion
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
			send(HelloReply{Type: "hello", Protocol: proto, Name: "fake " + mode, WantRules: record != nil})
		case "game":
			seed = msg.Seed
		case "end":
			if mode == "endexit" {
				return 0
			}
		case "decision":
			if mode == "hangnow" {
				time.Sleep(time.Hour)
			}
			if msg.N == failDecision && failsPlayer(seed) {
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
					send(Answer{Type: "answer", ID: "nope/" + strconv.Itoa(msg.N) + "/0/0"})
					continue
				}
			}
			send(Answer{Type: "answer", ID: msg.Options[0].ID})
		}
	}
	return 0
}

// fakeHarness plays one game with the exec policy of spec, as sim would,
// for a test to kill it while the program works.
func fakeHarness(spec string) int {
	sp, err := policy.Parse(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 12
	}
	g, err := engine.New(engine.Reference(), 1, engine.Config{Opposition: opposition.Solo{}})
	if err != nil {
		return 13
	}
	p := sp.New()
	p.Reset(1)
	if policy.Play(g, p, nil) != nil {
		return 14
	}
	return 0
}

const faultSeed = 11

// faultGames is the games of a fault test's run: enough for several
// failures among games that do not fail, fewer under -short (the race
// run, where the fake players are race-instrumented too).
func faultGames() int64 {
	if testing.Short() {
		return 9
	}
	return 24
}

func faultConfig(t *testing.T, spec string, workers int) sim.Config {
	t.Helper()
	sp, err := policy.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Config{
		Rules: engine.Reference(), Seed: faultSeed, Games: faultGames(), Workers: workers, MaxErrors: faultGames(),
		Cells: []sim.CellSpec{{Mode: engine.Normal, Policy: sp, Politician: 0}},
	}
}
