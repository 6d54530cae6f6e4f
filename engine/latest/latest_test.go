package latest

import (
	"sync"
	"testing"
)

func TestSendKeepsOnlyTheLatestAndNeverBlocks(t *testing.T) {
	c := New[int]()
	for i := 1; i <= 100; i++ {
		c.Send(i) // would block on the second Send if values queued
	}
	if got := <-c.Out(); got != 100 {
		t.Fatalf("reader got %d, want the latest value 100", got)
	}
	select {
	case v := <-c.Out():
		t.Fatalf("reader got %d after taking the latest, want nothing", v)
	default:
	}
}

func TestCloseDeliversTheUnreadValueThenEnds(t *testing.T) {
	c := New[string]()
	c.Send("last")
	c.Close()
	c.Close()         // harmless
	c.Send("ignored") // after Close: no panic, not delivered
	var got []string
	for v := range c.Out() {
		got = append(got, v)
	}
	if len(got) != 1 || got[0] != "last" {
		t.Fatalf("reader got %q, want [last] then the end", got)
	}
}

func TestConcurrentSendAndClose(t *testing.T) {
	c := New[int]()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				c.Send(w*1000 + i)
			}
		})
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range c.Out() {
		}
	}()
	wg.Wait()
	c.Close()
	<-done
}
