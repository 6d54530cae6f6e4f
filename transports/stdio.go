package transports

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Shutdown schedule of a stdio server: SIGINT, then SIGTERM after
// interruptGrace, then SIGKILL after terminateGrace more; 600 ms at most.
const (
	interruptGrace = 100 * time.Millisecond
	terminateGrace = 400 * time.Millisecond
	killGrace      = 100 * time.Millisecond // for the kernel to deliver SIGKILL
	// drainGrace bounds how long, after the child exited, we wait for its
	// last stdout/stderr bytes when something else still holds the pipes.
	drainGrace = 200 * time.Millisecond
)

// stdioTransport runs a server process in its own process group and speaks
// newline-delimited JSON-RPC over its stdin/stdout. It implements mcp-go's
// transport.BidirectionalInterface.
type stdioTransport struct {
	*rpcPeer
	group *platform.Group // the server and every process it spawned
	pid   int
	ring  *stderrRing

	name    string // server name, for errors
	maxLine int    // Options.MaxMessageSize

	stdin   *os.File
	writeMu sync.Mutex
	stdout  *os.File
	stderr  *os.File

	stdoutDone chan struct{}
	stderrDone chan struct{}
	exited     chan struct{} // closed once the process is reaped and the peer failed
	closing    atomic.Bool
	closeOnce  sync.Once
	closeErr   error
}

// openStdio spawns the process and builds a client over it.
func openStdio(c *Conn, name string, cfg model.ServerConfig, opts Options) error {
	t, err := startStdio(name, cfg, opts)
	if err != nil {
		return err
	}
	c.stderr, c.pid, c.shutdown, c.reason, c.probeEnded = t, t.pid, t.shutdown, t.err, t.probeEnded.Load
	c.logPath = t.ring.logPath
	go func() {
		<-t.done
		c.lost(t.err())
	}()
	c.client = client.NewClient(tapped(t, c.rec), clientOptions(opts)...)
	return c.client.Start(context.Background())
}

var _ transport.BidirectionalInterface = (*stdioTransport)(nil)

// startStdio starts cfg.Command through opts.Launcher, which finds it once,
// judges it by managed policy and starts that very file. The returned
// transport is running: the process started and its readers are going.
func startStdio(name string, cfg model.ServerConfig, opts Options) (*stdioTransport, error) {
	var files []*os.File // every pipe end, for cleanup on failure
	pipe := func() (*os.File, *os.File, error) {
		r, w, err := os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	// The process outlives Open's context: its end is ours to manage (shutdown).
	ring := newStderrRing(opts.LogDir, name, opts.Mask)
	spec := launch.Spec{Command: cfg.Command, Args: cfg.Args, Env: cfg.Env, Dir: cfg.Cwd, Sandbox: cfg.Sandbox}
	netw, stopProxy, err := sandboxProxy(cfg.Sandbox, ring.note, opts.OnRefuse)
	if err != nil {
		ring.close()
		closeAll()
		return nil, err
	}
	spec.Net = netw
	g, err := opts.Launcher.Start(spec, inR, outW, errW)
	if err != nil {
		stopProxy()
		ring.close()
		closeAll()
		return nil, err
	}
	g.AfterExit(stopProxy)
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()
	if opts.Started != nil {
		opts.Started(g.Pid())
	}

	t := &stdioTransport{
		group:      g,
		pid:        g.Pid(),
		ring:       ring,
		name:       name,
		maxLine:    opts.maxMessage(),
		stdin:      inW,
		stdout:     outR,
		stderr:     errR,
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
	}
	t.rpcPeer = newRPCPeer(t.write)
	go t.readStdout()
	go func() {
		defer close(t.stderrDone)
		t.ring.consume(t.stderr)
	}()
	go t.wait()
	return t, nil
}

// Start is a no-op: the process started in startStdio.
func (t *stdioTransport) Start(context.Context) error { return nil }

// Close shuts the process down with the full escalation.
func (t *stdioTransport) Close() error { return t.shutdown(context.Background()) }

// write sends one message line; a write that ctx interrupts leaves the stream
// unusable, so the peer fails.
func (t *stdioTransport) write(ctx context.Context, msg []byte) (err error) {
	lock.With(&t.writeMu, func() { err = t.writeLocked(ctx, msg) })
	return err
}

// writeLocked is write's work, holding writeMu.
func (t *stdioTransport) writeLocked(ctx context.Context, msg []byte) error {
	// The interrupting deadline is set on its own goroutine, which may run
	// after this write returned: the reset below must come after it, or the
	// stale deadline fails the next write at once.
	var mu sync.Mutex
	finished := false
	stop := context.AfterFunc(ctx, func() {
		lock.With(&mu, func() {
			if !finished {
				_ = t.stdin.SetWriteDeadline(time.Now())
			}
		})
	})
	defer func() {
		if !stop() {
			lock.With(&mu, func() {
				finished = true
				_ = t.stdin.SetWriteDeadline(time.Time{})
			})
		}
	}()
	line := make([]byte, 0, len(msg)+1)
	line = append(append(line, msg...), '\n')
	n, err := t.stdin.Write(line)
	if err != nil {
		if ctx.Err() != nil {
			if n > 0 {
				t.fail(fmt.Errorf("write to server interrupted mid-message: %w", ctx.Err()))
			}
			return ctx.Err()
		}
		return fmt.Errorf("write to server: %w", err)
	}
	return nil
}

// readStdout dispatches stdout lines until EOF. When stdout ended because
// the process is exiting, its exit (wait) says why, however long that takes
// on a busy machine; when it ends but the process lives on, the connection
// is lost all the same, after a grace for an exit that was on its way.
func (t *stdioTransport) readStdout() {
	eof := t.readLines()
	close(t.stdoutDone)
	if !eof {
		return
	}
	if exiting(t.pid) {
		select {
		case <-t.exited:
		case <-t.done:
		}
		return
	}
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	select {
	case <-t.exited:
	case <-t.done:
	case <-timer.C:
		t.fail(fmt.Errorf("%w: the server closed its stdout", ErrConnectionLost))
	}
}

// readLines reads and dispatches lines. Blank lines are skipped; lines that
// do not start like JSON are kept as noise in the stderr ring (servers that
// log to stdout); anything else malformed is a protocol error that ends the
// connection, and so does a line over the size limit (whatever it holds). It reports whether stdout simply ended.
func (t *stdioTransport) readLines() (eof bool) {
	lr := newLineReader(bufio.NewReaderSize(t.stdout, 64<<10), t.maxLine)
	for {
		line, err := lr.next()
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				t.fail(&MessageTooLargeError{Server: t.name, Limit: t.maxLine, Err: err})
				t.group.Signal(platform.Kill)
				return false
			}
			return true
		}
		s := strings.TrimSpace(string(line[:min(len(line), 64)]))
		if s == "" && len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if s == "" || (s[0] != '{' && s[0] != '[') {
			t.ring.note(stdoutNoiseNote + strings.TrimSpace(string(line[:min(len(line), stderrMaxLine)])))
			continue
		}
		if err := t.dispatch(line); err != nil {
			t.fail(err)
			t.group.Signal(platform.Kill)
			return false
		}
	}
}

// stderrSink is satisfied by transports that capture a process's stderr.
type stderrSink interface {
	stderrTail(n int) []string
	stderrChanged() <-chan struct{}
}

func (t *stdioTransport) stderrTail(n int) []string { return t.ring.tail(n) }

func (t *stdioTransport) stderrChanged() <-chan struct{} { return t.ring.changed }

var _ io.Closer = (*stdioTransport)(nil)
