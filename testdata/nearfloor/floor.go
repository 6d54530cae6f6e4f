package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// The floor's messages: what any client must send to list a server's tools.
const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"floor","version":"0"}}}` + "\n"
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	listTools   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
)

// startAll is the floor: it starts every server at once, initializes each
// and lists its tools, and returns how long until the last answered. The
// servers are stopped afterwards, outside the time.
func startAll(ss []server) (time.Duration, error) {
	var wg sync.WaitGroup
	errs := make(chan error, len(ss))
	cmds := make([]*exec.Cmd, len(ss))
	start := time.Now()
	for i, s := range ss {
		cmd := exec.Command(s[0], s[1:]...)
		cmds[i] = cmd
		wg.Go(func() { errs <- handshake(cmd) })
	}
	wg.Wait()
	d := time.Since(start)
	close(errs)
	for _, cmd := range cmds {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}
	for err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return d, nil
}

// handshake starts cmd, initializes it and reads its tools/list answer.
func handshake(cmd *exec.Cmd) error {
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(out, 1<<20)
	if _, err := io.WriteString(in, initialize); err != nil {
		return err
	}
	if _, err := r.ReadBytes('\n'); err != nil {
		return fmt.Errorf("reading the initialize answer: %w", err)
	}
	if _, err := io.WriteString(in, initialized+listTools); err != nil {
		return err
	}
	if _, err := r.ReadBytes('\n'); err != nil {
		return fmt.Errorf("reading the tools/list answer: %w", err)
	}
	return nil
}
