//go:build !calibration

package sim

import "testing"

// calibrationStudy skips a calibration study: a Monte Carlo simulation
// that measures a method's error rates over enough runs to hold them to
// a stated tolerance. With its fixed seeds it proves the same figures on
// every run until the method changes, and the studies take four fifths
// of the package's time, so go test ./... leaves them out; go test -tags
// calibration (make calibration, and .ci/run) runs them.
func calibrationStudy(t *testing.T) {
	t.Helper()
	t.Skip("a calibration study: go test -tags calibration runs it")
}
