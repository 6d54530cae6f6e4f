//go:build linux

package engine

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// cpuMeter tells whether the machine's CPUs are busy, from /proc/stat: the
// share of non-idle time since the previous look (at least 50 ms before).
type cpuMeter struct {
	mu         sync.Mutex
	at         time.Time
	idle, all  uint64
	busyBefore bool
}

// busyShare is the CPU use above which the machine counts as busy.
const busyShare = 0.85

func newCPUMeter() func() bool {
	m := &cpuMeter{}
	m.sample()
	return m.busy
}

func (m *cpuMeter) busy() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Since(m.at) < 50*time.Millisecond {
		return m.busyBefore
	}
	idle0, all0 := m.idle, m.all
	if !m.sampleLocked() || m.all <= all0 {
		return false
	}
	used := 1 - float64(m.idle-idle0)/float64(m.all-all0)
	m.busyBefore = used > busyShare
	return m.busyBefore
}

func (m *cpuMeter) sample() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sampleLocked()
}

// sampleLocked reads the "cpu" line: user nice system idle iowait irq
// softirq steal …; idle and iowait are idle time.
func (m *cpuMeter) sampleLocked() bool {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	fields := bytes.Fields(line)
	if len(fields) < 5 || string(fields[0]) != "cpu" {
		return false
	}
	var idle, all uint64
	for i, f := range fields[1:] {
		n, err := strconv.ParseUint(string(f), 10, 64)
		if err != nil {
			return false
		}
		all += n
		if i == 3 || i == 4 {
			idle += n
		}
	}
	m.at, m.idle, m.all = time.Now(), idle, all
	return true
}
