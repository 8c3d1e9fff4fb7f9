package exec

import "syscall"

// setDeathSignal has Linux kill the program when the harness dies, even
// by SIGKILL, when no Close can run: a hung program must not outlive it.
// (The signal follows the thread that started the program; the Go runtime
// does not end threads of its own accord.)
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
