package lock

import (
	"sync"
	"testing"
)

func TestWithUnlocksOnPanic(t *testing.T) {
	var mu sync.Mutex
	func() {
		defer func() { _ = recover() }()
		With(&mu, func() { panic("boom") })
	}()
	if !mu.TryLock() {
		t.Fatal("the mutex is still held after f panicked")
	}
}

func TestMapUpdateAndGet(t *testing.T) {
	var m Map[string, []string]
	if got := m.Get("a"); got != nil {
		t.Fatalf("absent key read %v, want the zero value", got)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			m.Update("a", func(v *[]string) { *v = append(*v, "x") })
		})
	}
	wg.Wait()
	if n := len(m.Get("a")); n != 50 {
		t.Errorf("after 50 concurrent updates the value has %d entries, want 50", n)
	}
}
