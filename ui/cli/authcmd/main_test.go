package authcmd

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no goroutine outlives the tests; they run the
// command line in this process, so no binary is built.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
