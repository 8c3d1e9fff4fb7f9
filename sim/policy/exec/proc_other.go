//go:build !unix

package exec

import osexec "os/exec"

// setGroup does nothing where there are no process groups.
func setGroup(*osexec.Cmd) {}

// killGroup kills the program.
func killGroup(cmd *osexec.Cmd) { cmd.Process.Kill() }
