package platform

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	runTreeHelper() // on Windows the binary may be TestKillEndsTheWholeTree's helper
	goleak.VerifyTestMain(m)
}
