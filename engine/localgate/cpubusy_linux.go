//go:build linux

package localgate

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
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

// CPUBusy returns a function that reports whether the machine's CPUs are
// busy, for New's adaptive gate.
func CPUBusy() func() bool {
	m := &cpuMeter{}
	lock.With(&m.mu, func() { m.sampleLocked() })
	return m.busy
}

func (m *cpuMeter) busy() (busy bool) {
	lock.With(&m.mu, func() {
		if time.Since(m.at) < 50*time.Millisecond {
			busy = m.busyBefore
			return
		}
		idle0, all0 := m.idle, m.all
		if !m.sampleLocked() || m.all <= all0 {
			return
		}
		used := 1 - float64(m.idle-idle0)/float64(m.all-all0)
		m.busyBefore = used > busyShare
		busy = m.busyBefore
	})
	return busy
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
