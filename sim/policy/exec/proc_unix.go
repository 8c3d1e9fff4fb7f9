//go:build unix

package exec

import (
	osexec "os/exec"
	"syscall"
)

// setGroup starts the program in a process group of its own, so that a
// terminal's Ctrl-C reaches the harness only (which then stops the
// program) and killGroup reaches anything the program started. Where the
// system can, the program is also killed if the harness dies without
// stopping it (setDeathSignal).
func setGroup(cmd *osexec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// killGroup kills the program's process group. It is called before Wait,
// while the group is still the program's.
func killGroup(cmd *osexec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
