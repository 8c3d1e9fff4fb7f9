package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"tallywood/cmd/tallywood/serve"
	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(command{name: "serve", summary: "run playtests in the browser: testers play by link, a dashboard for the designer", run: runServe})
}

const serveUsage = `usage: tallywood serve [--store FILE] [--listen ADDR] [--rules FILE]... [flags]

Serves playtests of the solo game in the browser: the designer makes a
playtest plan (rules, difficulty, which deals) on the dashboard and invites
testers by name; each tester gets a link to their own games, played point
and click against the Opposition. Every decision is committed to the store
(an SQLite file) before the page answers, so a reload, a closed laptop or a
restart of the server resumes each game where it was. The dashboard shows
the testers, games, results and time per decision, calibrate's fit of the
testers' skill refitted as games end, and exports the games as records of
decisions, an outcomes CSV and save files.

The server binds 127.0.0.1 (this machine only) unless --listen says
otherwise, e.g. --listen 0.0.0.0:8040 for testers on the LAN. Every page
needs its link's token. The dashboard's link is printed at start.

flags:
`

// defaultStore is the store serve keeps beside where it runs.
const defaultStore = "playtests.db"

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	storePath := fs.String("store", defaultStore, "the store `FILE` (SQLite), made when it does not exist")
	listen := fs.String("listen", "127.0.0.1:8040", "the `ADDR`ess to listen on (host:port); a host other than loopback opens the server to the network")
	rulesFiles := fs.StringArray("rules", nil, "a rules `FILE` plans may use besides the reference set (repeatable); plans keep a copy in the store")
	fitGames := fs.Int64("calibrate-games", 200, "the dashboard's fit: `N` games a point of the dial's curve at skill 1 and below, per difficulty (0: no fit)")
	fitSearch := fs.Int64("calibrate-search-games", 10, "the dashboard's fit: `N` games a point above skill 1, where the dial searches")
	fitSeed := fs.Uint64("calibrate-seed", 1, "the dashboard's fit: the curve's `SEED`")
	quiet := fs.Bool("quiet", false, "do not log refused requests on stderr")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage+helpText(fs))
			return exitOK
		}
		return fail(stderr, "serve: %s", flagError(err, fs))
	}
	if fs.NArg() > 0 {
		return fail(stderr, "serve: unexpected argument %q", fs.Arg(0))
	}
	if *fitGames < 0 || *fitGames > sim.MaxGames {
		return fail(stderr, "serve: --calibrate-games %d is outside 0..%d", *fitGames, int64(sim.MaxGames))
	}
	if *fitSearch < 1 || *fitSearch > sim.MaxGames {
		return fail(stderr, "serve: --calibrate-search-games %d is outside 1..%d", *fitSearch, int64(sim.MaxGames))
	}
	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		return fail(stderr, "serve: --listen %q: %v (want host:port, e.g. 127.0.0.1:8040)", *listen, err)
	}
	rules := map[string]*engine.Rules{}
	for _, path := range *rulesFiles {
		r, err := loadRules(path)
		if err != nil {
			return failInput(stderr, "serve: %v", err)
		}
		name := filepath.Base(path)
		if rules[name] != nil || name == engine.ReferenceName {
			return fail(stderr, "serve: --rules: two rules files named %q: plans tell rules apart by file name", name)
		}
		rules[name] = r
	}
	fit := sim.CalibrateConfig{RunConfig: sim.RunConfig{Seed: *fitSeed}, Games: *fitGames, SearchGames: *fitSearch}
	if fit.Skills, err = parseSkills("calibrate-skills", defaultSkills); err != nil {
		return failRun(stderr, "serve: %v", err)
	}
	if fit.Levels, err = parsePolicies("levels", defaultLevels); err != nil {
		return failRun(stderr, "serve: %v", err)
	}
	store, err := serve.Open(*storePath)
	if err != nil {
		return failInput(stderr, "serve: %v", err)
	}
	defer store.Close()
	logger := log.New(stderr, "tallywood serve: ", log.LstdFlags)
	if *quiet {
		logger = nil
	}
	srv, err := serve.New(serve.Config{Store: store, Rules: rules, Fit: fit, Log: logger})
	if err != nil {
		return failRun(stderr, "serve: %v", err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return failRun(stderr, "serve: %v", err)
	}
	port = fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	shown := host
	open := true
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		open = false
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		shown, _ = os.Hostname()
	}
	fmt.Fprintf(stdout, "tallywood serve: store %s (schema %d)\n", *storePath, serve.SchemaVersion)
	fmt.Fprintf(stdout, "Designer's dashboard: http://%s/d/%s\n", net.JoinHostPort(shown, port), srv.DesignerToken())
	if open {
		fmt.Fprintf(stdout, "Listening on %s: open to the network; every page needs its link's token.\n", ln.Addr())
	} else {
		fmt.Fprintf(stdout, "Listening on %s, this machine only (--listen 0.0.0.0:%s opens it to the LAN).\n", ln.Addr(), port)
	}
	fmt.Fprintln(stdout, "Ctrl-C stops the server; every decision is already in the store.")
	hs := srv.HTTPServer()
	ctx, release := interruptible("serve", io.Discard)
	defer release()
	errs := make(chan error, 1)
	go func() { errs <- hs.Serve(ln) }()
	select {
	case err := <-errs:
		return failRun(stderr, "serve: %v", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return failRun(stderr, "serve: %v", err)
	}
	fmt.Fprintln(stdout, "tallywood serve: stopped; the store holds every game.")
	return exitOK
}
