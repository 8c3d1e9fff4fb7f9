//go:build unix && !linux

package exec

import "syscall"

// setDeathSignal does nothing where the system cannot tie a child's life
// to its parent's; a program still gets end of file on its input.
func setDeathSignal(*syscall.SysProcAttr) {}
