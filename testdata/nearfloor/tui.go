package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tui is mcpdeck's TUI running in a tmux server of its own.
type tui struct {
	socket string
	pid    int
}

// startTUI runs the TUI in a 120×40 tmux window in the world's project
// directory.
func (w *world) startTUI() (*tui, error) {
	t := &tui{socket: fmt.Sprintf("nearfloor-%d-%d", os.Getpid(), time.Now().UnixNano())}
	line := "exec env -i"
	for _, kv := range w.env() {
		line += " " + shellQuote(kv)
	}
	line += " " + shellQuote(w.bin) + " --mcp-config " + shellQuote(w.config)
	out, err := exec.Command("tmux", "-L", t.socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40",
		"-c", w.proj, "-P", "-F", "#{pane_pid}", line).Output()
	if err != nil {
		return nil, fmt.Errorf("starting tmux: %w", err)
	}
	t.pid, err = strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.stop()
		return nil, fmt.Errorf("tmux's pane pid %q: %w", out, err)
	}
	return t, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var connectedRE = regexp.MustCompile(`● (\d+) connected`)

// connected is the number of connected servers the header shows.
func (t *tui) connected() (int, error) {
	out, err := exec.Command("tmux", "-L", t.socket, "capture-pane", "-p").Output()
	if err != nil {
		return 0, fmt.Errorf("reading the screen: %w", err)
	}
	first, _, _ := bytes.Cut(out, []byte("\n"))
	m := connectedRE.FindSubmatch(first)
	if m == nil {
		return 0, nil
	}
	return strconv.Atoi(string(m[1]))
}

// waitConnected polls the screen every 20 ms until n servers are
// connected and returns when that was first seen.
func (t *tui) waitConnected(n int) (time.Time, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		got, err := t.connected()
		if err != nil {
			return time.Time{}, err
		}
		if got == n {
			return time.Now(), nil
		}
		time.Sleep(20 * time.Millisecond) // polling a screen, not a test
	}
	return time.Time{}, fmt.Errorf("%w within 2 minutes", errNotAll)
}

// stop ends the tmux server (the TUI gets SIGHUP) and waits for the TUI
// to exit.
func (t *tui) stop() {
	_ = exec.Command("tmux", "-L", t.socket, "kill-server").Run()
	for range 500 {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", t.pid)); err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cpu is the CPU time the process has used (user + system), from
// /proc/PID/stat in clock ticks of 10 ms.
func cpu(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("reading /proc/%d/stat: %q", pid, b)
	}
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}

// tuiConnected times the TUI from start until its header counts n
// connected.
func (w *world) tuiConnected(n int) (time.Duration, error) {
	start := time.Now()
	t, err := w.startTUI()
	if err != nil {
		return 0, err
	}
	defer t.stop()
	at, err := t.waitConnected(n)
	return at.Sub(start), err
}

// idleTUI reads the TUI's CPU use while nothing changes, then while
// another program writes to a file in the project directory.
func idleTUI(w *world, ss []server, idle time.Duration, writes int) error {
	if err := w.writeServers(ss); err != nil {
		return err
	}
	t, err := w.startTUI()
	if err != nil {
		return err
	}
	defer t.stop()
	if _, err := t.waitConnected(len(ss)); err != nil {
		return err
	}
	c0, err := settle(t.pid)
	if err != nil {
		return err
	}
	time.Sleep(idle)
	c1, err := cpu(t.pid)
	if err != nil {
		return err
	}
	if hwm, rss, err := memory(t.pid); err == nil {
		fmt.Printf("idle50  TUI memory after the start: peak %d MB, now %d MB\n", hwm>>10, rss>>10)
	}
	rate := float64(c1-c0) / float64(idle)
	fmt.Printf("idle50  TUI idle, %d connected: %.2f%% of a core (%v CPU in %v; floor 0)\n", len(ss), 100*rate, c1-c0, idle)
	other := filepath.Join(w.proj, "build.log")
	start := time.Now()
	for i := range writes {
		if err := os.WriteFile(other, []byte(strconv.Itoa(i)), 0o600); err != nil {
			return err
		}
	}
	time.Sleep(time.Second) // the watcher's debounce and reload, if any
	c2, err := cpu(t.pid)
	if err != nil {
		return err
	}
	spent := time.Since(start)
	extra := c2 - c1 - time.Duration(rate*float64(spent))
	fmt.Printf("idle50  %d writes to another file in the project directory: %.2f s CPU beyond idle (%v in %v; floor 0)\n", writes, extra.Seconds(), c2-c1, spent.Round(time.Millisecond))
	return nil
}

// settle waits until the start's work (the token counts) is over: a
// second in which the process used at most one clock tick, or 60 s. It
// returns the CPU used so far.
func settle(pid int) (time.Duration, error) {
	c0, err := cpu(pid)
	for range 60 {
		if err != nil {
			return 0, err
		}
		time.Sleep(time.Second)
		c1, err1 := cpu(pid)
		if err1 == nil && c1-c0 <= 10*time.Millisecond {
			return c1, nil
		}
		c0, err = c1, err1
	}
	return c0, err
}

// memory is the process's peak and current resident size in KB (VmHWM,
// VmRSS).
func memory(pid int) (hwm, rss int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "VmHWM:":
			hwm, _ = strconv.Atoi(f[1])
		case "VmRSS:":
			rss, _ = strconv.Atoi(f[1])
		}
	}
	return hwm, rss, nil
}
