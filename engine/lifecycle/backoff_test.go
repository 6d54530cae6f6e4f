package lifecycle

import (
	"testing"
	"time"
)

func TestBackoffSchedule(t *testing.T) {
	b := DefaultBackoff()
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i, w := range want {
		if got := b.Delay(i+1, nil); got != w*time.Second {
			t.Errorf("Delay(%d) = %s, want %s", i+1, got, w*time.Second)
		}
	}
	if got := b.Delay(3, func() float64 { return 0.5 }); got != 4*time.Second+500*time.Millisecond {
		t.Errorf("Delay(3) with jitter 0.5 = %s, want 4.5s", got)
	}
	if got := b.Delay(100, func() float64 { return 0 }); got != 30*time.Second {
		t.Errorf("Delay(100) = %s, want cap 30s", got)
	}
}
