package engine

import (
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
