//go:build calibration

package sim

import "testing"

// calibrationStudy lets a calibration study run: this build has the
// calibration tag (calibration_off_test.go says what the studies are).
func calibrationStudy(*testing.T) {}
