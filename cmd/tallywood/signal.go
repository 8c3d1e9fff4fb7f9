package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"tallywood/sim/policy/exec"
)

// baseContext is the context commands run under; tests replace it to
// interrupt a run.
var baseContext = context.Background

// notifySignals and exit are signal.Notify and os.Exit; tests replace
// them to send signals and see the exit.
var (
	notifySignals = func(c chan<- os.Signal) { signal.Notify(c, os.Interrupt, syscall.SIGTERM) }
	stopSignals   = func(c chan<- os.Signal) { signal.Stop(c) }
	exit          = os.Exit
)

// interruptible returns a context that the first Ctrl-C (or SIGTERM)
// cancels: the run stops after the games in play and writes what it has.
// A second one exits at once, removing any temporary output file, for a
// run whose games are too slow to wait for. release stops listening.
func interruptible(cmd string, stderr io.Writer) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(baseContext())
	sigs := make(chan os.Signal, 2)
	notifySignals(sigs)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		fmt.Fprintf(stderr, "\ntallywood: %s: interrupted: finishing the games in play, then writing the partial result (Ctrl-C again to quit at once)\n", cmd)
		cancel()
		select {
		case <-sigs:
		case <-done:
			return
		}
		removePending()
		// A player program's children outlive it otherwise: the death
		// signal reaches the program only.
		exec.KillAll()
		fmt.Fprintf(stderr, "tallywood: %s: quit at once, without writing the partial result\n", cmd)
		exit(exitFailed)
	}()
	return ctx, func() {
		stopSignals(sigs)
		close(done)
		cancel()
	}
}
