package cli

import (
	"testing"
)

// TestMain builds the binary for this package's tests (mainTest).
func TestMain(m *testing.M) { mainTest(m) }
