package engine

import (
	"encoding/json"
	"testing"
)

// TestNumberAcceptsEveryNumericForm guards progress from in-process servers,
// whose notifications skip the JSON round trip and carry Go integers.
func TestNumberAcceptsEveryNumericForm(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want float64
	}{
		{float64(2.5), 2.5},
		{float32(1.5), 1.5},
		{int(3), 3},
		{int64(4), 4},
		{int32(5), 5},
		{uint64(6), 6},
		{json.Number("7.25"), 7.25},
		{"8", 0},
		{nil, 0},
	} {
		if got := number(tc.in); got != tc.want {
			t.Errorf("number(%#v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
