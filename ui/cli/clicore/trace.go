package clicore

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// traceFile is --trace FILE: every JSON-RPC frame of every server, one
// JSON object a line, written as it passes. The file is the person's
// alone (0600) and never reached through a symbolic link.
type traceFile struct {
	path string

	mu     sync.Mutex
	f      *os.File
	err    error // the first failure; later frames are dropped
	closed bool
}

// traceLine is one frame in the trace.
type traceLine struct {
	Time       time.Time       `json:"time"`
	Server     string          `json:"server"`
	Direction  string          `json:"direction"`
	Kind       string          `json:"kind"`
	Method     string          `json:"method,omitempty"`
	ID         json.RawMessage `json:"id,omitempty"`
	DurationMS *float64        `json:"duration_ms,omitempty"`
	Size       int             `json:"size"`
	Body       string          `json:"body"`
	Cut        bool            `json:"cut,omitempty"`
}

// newTraceLine is f of server as a trace line: the id as the JSON it was,
// the duration only for answers.
func newTraceLine(server string, f engine.Frame) traceLine {
	l := traceLine{
		Time: f.At, Server: server, Direction: string(f.Dir), Kind: string(f.Kind), Method: f.Method,
		Size: f.Size, Body: f.Body, Cut: f.Cut,
	}
	if json.Valid([]byte(f.ID)) {
		l.ID = json.RawMessage(f.ID)
	}
	if f.Kind == engine.FrameResponse || f.Kind == engine.FrameError {
		ms := float64(f.Duration.Microseconds()) / 1000
		l.DurationMS = &ms
	}
	return l
}

// openTrace creates path for the trace (emptying a regular file there).
func openTrace(path string) (*traceFile, error) {
	f, err := platform.CreatePrivate(path, false)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return &traceFile{path: path, f: f}, nil
}

// TraceJSON is f of server as one trace line, without its newline,
// escaped as --json output is (textsafe.EscapeJSON), so a trace or a
// bundle's traffic shown on a terminal cannot drive it.
func TraceJSON(server string, f engine.Frame) ([]byte, error) {
	b, err := json.Marshal(newTraceLine(server, f))
	if err != nil {
		return nil, err
	}
	return textsafe.EscapeJSON(b), nil
}

// write appends one frame (TraceJSON).
func (t *traceFile) write(server string, f engine.Frame) {
	b, err := TraceJSON(server, f)
	if err != nil {
		return
	}
	b = append(b, '\n')
	lock.With(&t.mu, func() {
		if t.err != nil || t.closed {
			return
		}
		if _, err := t.f.Write(b); err != nil {
			t.err = fmt.Errorf("--trace %s: %w", t.path, err)
		}
	})
}

// close ends the trace and returns the first failure, if any.
func (t *traceFile) close() (err error) {
	lock.With(&t.mu, func() {
		if !t.closed {
			t.closed = true
			if cerr := t.f.Close(); cerr != nil && t.err == nil {
				t.err = fmt.Errorf("--trace %s: %w", t.path, cerr)
			}
		}
		err = t.err
	})
	return err
}

// TraceInto makes eo hand every frame to the --trace file, opened the
// first time a command builds an engine. Without --trace it does nothing.
func (g *Globals) TraceInto(eo *engine.Options) error {
	if g.TracePath == "" {
		return nil
	}
	if g.trace == nil {
		t, err := openTrace(g.TracePath)
		if err != nil {
			return err
		}
		g.trace = t
	}
	eo.OnFrame = g.trace.write
	return nil
}

// CloseTrace ends the --trace file, saying on stderr if frames were lost.
func (g *Globals) CloseTrace() {
	if g.trace == nil {
		return
	}
	if err := g.trace.close(); err != nil {
		fmt.Fprintln(g.Stderr, "mcpdeck: "+err.Error()+" (the trace is incomplete)")
	}
}
