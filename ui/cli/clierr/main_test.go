package clierr

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestMain builds the binary this package's tests run (clitest.Main).
func TestMain(m *testing.M) { clitest.Main(m) }
