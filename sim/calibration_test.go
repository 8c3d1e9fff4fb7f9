//go:build calibration

package sim

import "testing"

// calibrationStudy lets a calibration study run: this build has the
// calibration tag (calibration_off_test.go says what the studies are).
// The studies draw from generators of their own, so they run in
// parallel, with each other and with the package's parallel tests.
func calibrationStudy(t *testing.T) { t.Parallel() }
