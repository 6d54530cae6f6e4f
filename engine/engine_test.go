package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// current returns one server's snapshot after everything settles.
func current(t *testing.T, e *Engine, name string) ServerSnapshot {
	t.Helper()
	synctest.Wait()
	s, ok := serverSnap(e.Snapshot(), name)
	if !ok {
		t.Fatalf("server %s not in snapshot", name)
	}
	return s
}

func mustStart(t *testing.T, e *Engine) {
	t.Helper()
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
}

func TestConnectListsAndCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["demo"] = demoServer
		e := newTestEngine(t, n, stdioServer("demo"))
		mustStart(t, e)
		s := current(t, e, "demo")
		if s.State != model.StateConnected {
			t.Fatalf("state = %s (%s)", s.State, s.Error)
		}
		if len(s.Tools) != 1 || s.Tools[0].ExposedName != "mcp__demo__add" || s.Tools[0].Description != "Adds two numbers" || !s.Tools[0].ReadOnly {
			t.Fatalf("tools = %+v", s.Tools)
		}
		if len(s.Resources) != 1 || len(s.Prompts) != 1 || s.ServerInfo.Name != "demo" {
			t.Fatalf("resources=%v prompts=%v info=%v", s.Resources, s.Prompts, s.ServerInfo)
		}
		res, err := e.CallTool(context.Background(), "demo", "add", map[string]any{"a": 2, "b": 3}, nil)
		if err != nil || res.Content[0].Text != "5" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		_, err = e.CallTool(context.Background(), "demo", "add", map[string]any{"a": "two"}, nil)
		if !errors.Is(err, ErrInvalidArguments) || !strings.Contains(err.Error(), `"a"`) {
			t.Fatalf("bad args err = %v", err)
		}
		rr, err := e.ReadResource(context.Background(), "demo", "file:///hello.txt")
		if err != nil || rr.Contents[0].Text != "hello" {
			t.Fatalf("read = %+v %v", rr, err)
		}
		pr, err := e.GetPrompt(context.Background(), "demo", "greet", map[string]string{"who": "you"})
		if err != nil || pr.Messages[0].Text != "hello you" {
			t.Fatalf("prompt = %+v %v", pr, err)
		}
		if _, err := e.GetPrompt(context.Background(), "demo", "greet", nil); !errors.Is(err, ErrInvalidArguments) {
			t.Fatalf("prompt without required arg: %v", err)
		}
		if _, err := e.CallTool(context.Background(), "nope", "add", nil, nil); !errors.Is(err, ErrUnknownServer) {
			t.Fatalf("unknown server: %v", err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if !n.last("demo").isClosed() {
			t.Error("connection not closed by Close")
		}
		if _, err := e.CallTool(context.Background(), "demo", "add", nil, nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("after close: %v", err)
		}
	})
}

func TestReconnectBackoffSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		var opens []time.Duration
		start := time.Now()
		n.hook = func(string) { opens = append(opens, time.Since(start)) }
		mustStart(t, e)
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("state %s", s.State)
		}
		// Run long enough that a lost connection is not a crash loop.
		time.Sleep(time.Minute)
		n.set(func() { n.fail["s"] = errors.New("connection refused") })
		opens = nil
		start = time.Now()
		n.last("s").kill(errors.New("stream ended"))
		s := current(t, e, "s")
		if s.State != model.StatePending || s.Attempt != 1 || s.MaxAttempts != 5 || !s.NextRetry.Equal(start.Add(time.Second)) {
			t.Fatalf("after loss: state=%s attempt=%d/%d next=%v", s.State, s.Attempt, s.MaxAttempts, s.NextRetry.Sub(start))
		}
		if len(s.Tools) != 0 {
			t.Error("tool cache not dropped on loss")
		}
		time.Sleep(2 * time.Minute)
		s = current(t, e, "s")
		if s.State != model.StateFailed || s.Reason.Kind != model.ReasonGaveUp || s.Reason.MaxAttempts != 5 {
			t.Fatalf("after retries: %s %q", s.State, s.Error)
		}
		// Attempts at 1, 1+2, 3+4, 7+8, 15+16 seconds.
		want := []time.Duration{1, 3, 7, 15, 31}
		if len(opens) != len(want) {
			t.Fatalf("opens at %v, want %v s", opens, want)
		}
		for i, w := range want {
			if opens[i] != w*time.Second {
				t.Errorf("attempt %d at %s, want %s", i+1, opens[i], w*time.Second)
			}
		}
	})
}

func TestRetryNowAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		time.Sleep(time.Minute)
		n.set(func() { n.fail["s"] = errors.New("refused") })
		n.last("s").kill(errors.New("gone"))
		if s := current(t, e, "s"); s.Attempt != 1 {
			t.Fatalf("attempt %d", s.Attempt)
		}
		before := n.opened("s")
		if err := e.Reconnect(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		s := current(t, e, "s")
		if n.opened("s") != before+1 || s.Attempt != 2 || s.State != model.StatePending {
			t.Fatalf("retry now: opens %d→%d, attempt %d, state %s", before, n.opened("s"), s.Attempt, s.State)
		}
		if err := e.CancelReconnect(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		s = current(t, e, "s")
		if s.State != model.StateFailed || s.Reason.Kind != model.ReasonRetryCancelled {
			t.Fatalf("after cancel: %s %q", s.State, s.Error)
		}
		opens := n.opened("s")
		time.Sleep(time.Hour)
		if n.opened("s") != opens {
			t.Error("retries continued after cancel")
		}
		if err := e.CancelReconnect(context.Background(), "s"); err == nil {
			t.Error("cancel of a failed server succeeded")
		}
		n.set(func() { delete(n.fail, "s") })
		if err := e.Reconnect(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("manual reconnect: %s", s.State)
		}
	})
}

func TestConnectTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.block["slow"] = true
		n.servers["fast"] = demoServer
		e := newTestEngine(t, n, stdioServer("slow"), stdioServer("fast"))
		start := time.Now()
		mustStart(t, e)
		if s := current(t, e, "fast"); s.State != model.StateConnected {
			t.Fatalf("fast server waited for the slow one: %s", s.State)
		}
		time.Sleep(30*time.Second - time.Millisecond)
		if s := current(t, e, "slow"); s.State != model.StatePending {
			t.Fatalf("slow before timeout: %s", s.State)
		}
		time.Sleep(time.Millisecond)
		s := current(t, e, "slow")
		if s.State != model.StateFailed || !strings.Contains(s.ErrorDetail, "MCP_TIMEOUT") || time.Since(start) != 30*time.Second {
			t.Fatalf("slow after 30s: %s %q", s.State, s.ErrorDetail)
		}
		// the limit that ran out, for ui/status to say how to raise it
		if s.Reason.Kind != model.ReasonTimedOut || s.Reason.Limit != 30*time.Second {
			t.Errorf("reason %+v, want timed-out after 30s", s.Reason)
		}
	})
}

func TestCrashLoopGuard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["c"] = demoServer
		e := newTestEngine(t, n, stdioServer("c"))
		var crashes atomic.Int32
		// Every connection crashes 2 s after it is made.
		mustStart(t, e)
		for i := 0; i < 20; i++ {
			s := current(t, e, "c")
			if s.State == model.StateFailed {
				break
			}
			if s.State == model.StateConnected {
				time.Sleep(2 * time.Second)
				crashes.Add(1)
				n.last("c").kill(exitErr(1))
				continue
			}
			time.Sleep(time.Second)
		}
		s := current(t, e, "c")
		if s.State != model.StateFailed || s.Reason.Kind != model.ReasonCrashLoop || crashes.Load() != 5 {
			t.Fatalf("state %s after %d crashes: %q", s.State, crashes.Load(), s.Error)
		}
		if s.ExitCode == nil || *s.ExitCode != 1 || !strings.Contains(reasonsText(s), "exited with code 1") {
			t.Errorf("exit code not shown: %v %v", s.ExitCode, reasonsText(s))
		}
	})
}

// TestSlowCrashesAreNotALoop: a server that runs longer than crashWindow
// before each crash is restarted every time, however often it happens.
func TestSlowCrashesAreNotALoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["c"] = demoServer
		e := newTestEngine(t, n, stdioServer("c"))
		mustStart(t, e)
		for i := range 2 * crashLoopLimit {
			if s := current(t, e, "c"); s.State != model.StateConnected {
				t.Fatalf("crash %d: state %s %q", i, s.State, s.Error)
			}
			time.Sleep(crashWindow + time.Second)
			n.last("c").kill(exitErr(1))
			if s := current(t, e, "c"); s.State != model.StatePending || s.Attempt != 1 {
				t.Fatalf("crash %d: state %s attempt %d, want a restart under backoff", i, s.State, s.Attempt)
			}
			time.Sleep(e.backoff.Delay(1, nil))
		}
	})
}

func TestBatchLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var servers []model.Server
		for i := range 10 {
			name := string(rune('a' + i))
			n.servers[name] = demoServer
			servers = append(servers, stdioServer(name))
		}
		var inFlight, peak atomic.Int32
		release := make(chan struct{})
		n.hook = func(string) {
			v := inFlight.Add(1)
			for {
				p := peak.Load()
				if v <= p || peak.CompareAndSwap(p, v) {
					break
				}
			}
			<-release
			inFlight.Add(-1)
		}
		e := newTestEngine(t, n, servers...)
		mustStart(t, e)
		synctest.Wait()
		if inFlight.Load() != 3 {
			t.Fatalf("%d local connects in flight, want 3", inFlight.Load())
		}
		close(release)
		synctest.Wait()
		for _, s := range e.Snapshot().Servers {
			if s.State != model.StateConnected {
				t.Errorf("%s: %s", s.Name, s.State)
			}
		}
		if peak.Load() != 3 {
			t.Errorf("peak %d, want 3", peak.Load())
		}
	})
}

func TestBatchLimitsFromEnv(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var servers []model.Server
		for i := range 10 {
			s := stdioServer(fmt.Sprintf("local%02d", i))
			n.servers[s.Name] = demoServer
			servers = append(servers, s)
		}
		for i := range 40 {
			s := stdioServer(fmt.Sprintf("remote%02d", i))
			s.Config = model.ServerConfig{Type: model.TransportHTTP, URL: "https://example.com/" + s.Name}
			n.servers[s.Name] = demoServer
			servers = append(servers, s)
		}
		var local, remote atomic.Int32
		release := make(chan struct{})
		n.hook = func(name string) {
			c := &local
			if strings.HasPrefix(name, "remote") {
				c = &remote
			}
			c.Add(1)
			<-release
		}
		e := newTestEngineEnv(t, n, map[string]string{
			"MCP_SERVER_CONNECTION_BATCH_SIZE": "5", "MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE": "25",
		}, servers...)
		mustStart(t, e)
		synctest.Wait()
		// Each kind fills its own slots: remote servers never wait for local ones.
		if local.Load() != 5 || remote.Load() != 25 {
			t.Fatalf("in flight: %d local, %d remote; want 5 and 25", local.Load(), remote.Load())
		}
		close(release)
		synctest.Wait()
		for _, s := range e.Snapshot().Servers {
			if s.State != model.StateConnected {
				t.Errorf("%s: %s", s.Name, s.State)
			}
		}
	})
}

func TestIdleStatesAndWhy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		off := stdioServer("off")
		off.Enabled = false
		blocked := stdioServer("blocked")
		blocked.Policy = model.PolicyDecision{Allowed: false, Rule: "deniedMcpServers: serverName=blocked"}
		proj := stdioServer("proj")
		proj.Scope = model.ScopeProject
		proj.Approval = model.Approval{Status: model.ApprovalPending}
		broken := stdioServer("broken")
		broken.Problems = []model.Problem{{Server: "broken", Field: "env.TOKEN", Message: "${TOKEN} is not set"}}
		e := newTestEngine(t, n, off, blocked, proj, broken)
		mustStart(t, e)
		synctest.Wait()
		check := func(name string, st model.State, why string) {
			s := current(t, e, name)
			if s.State != st || !strings.Contains(reasonsText(s), why) {
				t.Errorf("%s: state %s why %q, want %s / %q", name, s.State, reasonsText(s), st, why)
			}
		}
		check("off", model.StateDisabled, "disabled-by-you")
		check("blocked", model.StateDisabled, "blocked-by-policy deniedMcpServers")
		check("proj", model.StatePending, "awaiting-approval")
		check("broken", model.StateFailed, "${TOKEN} is not set")
		for _, name := range []string{"off", "blocked", "proj", "broken"} {
			if n.opened(name) != 0 {
				t.Errorf("%s was contacted", name)
			}
		}
		if err := e.Reconnect(context.Background(), "proj"); err == nil {
			t.Error("reconnect of an unapproved server succeeded")
		}
	})
}

func TestReloadRestartsOnlyChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["a"] = demoServer
		n.servers["b"] = demoServer
		n.servers["c"] = demoServer
		a, b, c := stdioServer("a"), stdioServer("b"), stdioServer("c")
		e := newTestEngine(t, n, a, b, c)
		mustStart(t, e)
		synctest.Wait()
		b.Hash = "changed"
		setServers(e, &config.Resolved{Servers: []model.Server{a, b}})
		if err := e.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n.opened("a") != 1 || n.opened("b") != 2 {
			t.Errorf("opens a=%d b=%d, want 1 and 2", n.opened("a"), n.opened("b"))
		}
		if _, ok := serverSnap(e.Snapshot(), "c"); ok || !n.last("c").isClosed() {
			t.Error("removed server c still present or not closed")
		}
		if s := current(t, e, "b"); s.State != model.StateConnected || s.Hash != "changed" {
			t.Errorf("b = %s %s", s.State, s.Hash)
		}
	})
}

func TestHistoryCapAndTransitions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		for range 30 {
			synctest.Wait()
			if err := e.Reconnect(context.Background(), "s"); err != nil {
				t.Fatal(err)
			}
		}
		s := current(t, e, "s")
		if len(s.History) != lifecycle.HistoryCap {
			t.Fatalf("history len %d, want %d", len(s.History), lifecycle.HistoryCap)
		}
		last := s.History[len(s.History)-1]
		if last.To != model.StateConnected || last.From != model.StatePending {
			t.Errorf("last transition %+v", last)
		}
	})
}

func TestAuthErrorNeedsAuth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, srv := signInNet()
		e := newTestEngine(t, n, srv)
		mustStart(t, e)
		s := current(t, e, "r")
		if s.State != model.StateNeedsAuth || !strings.Contains(reasonsText(s), "auth-needed") {
			t.Fatalf("state %s why %v", s.State, reasonsText(s))
		}
	})
}

func TestListChangedRefetchAndProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var srv *server.MCPServer
		seen := make(chan struct{})
		n.servers["s"] = func() *server.MCPServer {
			srv = server.NewMCPServer("s", "1", server.WithToolCapabilities(true))
			srv.AddTool(mcp.NewTool("slow"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				tok := req.Params.Meta.ProgressToken
				for i := 1; i <= 3; i++ {
					_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress",
						map[string]any{"progressToken": tok, "progress": float64(i), "total": float64(3)})
				}
				<-seen // in process, notifications travel apart from the response
				return mcp.NewToolResultText("done"), nil
			})
			return srv
		}
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		if s := current(t, e, "s"); len(s.Tools) != 1 {
			t.Fatalf("tools %v", s.Tools)
		}
		var got []Progress
		res, err := e.CallTool(context.Background(), "s", "slow", nil, func(p Progress) {
			got = append(got, p)
			if len(got) == 3 {
				close(seen)
			}
		})
		if err != nil || res.Content[0].Text != "done" {
			t.Fatal(res, err)
		}
		synctest.Wait()
		if len(got) != 3 || got[2].Progress != 3 || got[2].Total != 3 {
			t.Errorf("progress = %+v", got)
		}
		srv.AddTool(mcp.NewTool("second"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("2"), nil
		})
		if s := current(t, e, "s"); len(s.Tools) != 2 {
			t.Fatalf("after list_changed tools = %v", s.Tools)
		}
	})
}

func TestStaleAttemptDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		var first atomic.Bool
		first.Store(true)
		n.hook = func(string) {
			if first.Swap(false) {
				time.Sleep(5 * time.Second) // the first attempt is slow
			}
		}
		e := newTestEngine(t, n, stdioServer("s"))
		open := e.open
		e.open = func(ctx context.Context, name string, cfg model.ServerConfig, o connOptions) (session, error) {
			// A transport that finishes its handshake despite cancellation.
			return open(context.WithoutCancel(ctx), name, cfg, o)
		}
		mustStart(t, e)
		time.Sleep(time.Second)
		if err := e.Reconnect(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("second attempt: %s", s.State)
		}
		live := n.last("s")
		time.Sleep(10 * time.Second) // the first attempt finishes now
		synctest.Wait()
		n.mu.Lock()
		sessions := append([]*fakeSession(nil), n.sessions["s"]...)
		n.mu.Unlock()
		if len(sessions) != 2 {
			t.Fatalf("%d sessions", len(sessions))
		}
		stale := sessions[0]
		if stale == live {
			stale = sessions[1]
		}
		if !stale.isClosed() || live.isClosed() {
			t.Errorf("stale closed=%v live closed=%v", stale.isClosed(), live.isClosed())
		}
		e.mu.Lock()
		cur := e.byName["s"].conn.conn
		e.mu.Unlock()
		if cur != live {
			t.Error("stale attempt replaced the live connection")
		}
	})
}

func TestSlowReaderNeverBlocksEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var servers []model.Server
		for i := range 30 {
			name := fmt.Sprintf("s%02d", i)
			n.servers[name] = demoServer
			servers = append(servers, stdioServer(name))
		}
		e := newTestEngine(t, n, servers...)
		mustStart(t, e) // nobody reads Updates
		// On the bubble's clock, so a connect that waits out a retry (a
		// Windows sharing violation on a file it writes) gets its time
		// too; 10 s of it is far past any such wait.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			synctest.Wait()
			pending := ""
			for _, s := range e.Snapshot().Servers {
				if s.State != model.StateConnected {
					pending = fmt.Sprintf("%s: %s", s.Name, s.State)
				}
			}
			if pending == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal(pending)
			}
		}
		got := <-e.Updates()
		if got.Seq != e.Snapshot().Seq || got.Seq < 31 { // one for the load, one per connect
			t.Fatalf("reader got seq %d, latest is %d", got.Seq, e.Snapshot().Seq)
		}
		select {
		case s := <-e.Updates():
			t.Fatalf("stale snapshot %d still queued", s.Seq)
		default:
		}
	})
}

func TestStderrTailThrottled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		sess := n.last("s")
		seq0 := e.Snapshot().Seq
		// 1000 lines over one second: at most one snapshot per stderrPoll.
		for i := range 1000 {
			sess.addStderr(fmt.Sprint("line ", i))
			time.Sleep(time.Millisecond)
		}
		time.Sleep(stderrPoll)
		s := current(t, e, "s")
		if len(s.StderrTail) == 0 || s.StderrTail[len(s.StderrTail)-1] != "line 999" {
			t.Fatalf("stderr tail %v", s.StderrTail)
		}
		if snaps := e.Snapshot().Seq - seq0; snaps > uint64(time.Second/stderrPoll)+2 {
			t.Errorf("%d snapshots for one second of stderr", snaps)
		}
		// A quiet server costs nothing (no snapshots, no polling), and a
		// new line shows at once, without any time passing.
		synctest.Wait()
		seq1 := e.Snapshot().Seq
		time.Sleep(time.Minute)
		synctest.Wait()
		if n := e.Snapshot().Seq - seq1; n != 0 {
			t.Errorf("%d snapshots while stderr was quiet", n)
		}
		at := time.Now()
		sess.addStderr("late line")
		if s := current(t, e, "s"); s.StderrTail[len(s.StderrTail)-1] != "late line" || time.Since(at) != 0 {
			t.Errorf("late line not shown at once: %v after %s", s.StderrTail[len(s.StderrTail)-1], time.Since(at))
		}
	})
}

// TestWhyPathLookupsOutsideLockAndRecheckedOnReconnect: "command not found
// on PATH" is found without holding the engine mutex (PATH lookups are file
// system I/O), and a manual reconnect looks again.
func TestWhyPathLookupsOutsideLockAndRecheckedOnReconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.fail["s"] = errors.New("exec: not found")
		e := newTestEngine(t, n, stdioServer("s"))
		var installed atomic.Bool
		var underLock, lookups atomic.Int32
		e.findProgram = func(model.ServerConfig) error {
			lookups.Add(1)
			if !e.mu.TryLock() {
				underLock.Add(1) // nothing else runs at this point in the bubble
			} else {
				e.mu.Unlock()
			}
			if installed.Load() {
				return nil
			}
			return errors.New("not found")
		}
		mustStart(t, e)
		s := current(t, e, "s")
		if s.State != model.StateFailed || !strings.Contains(reasonsText(s), "command-not-found") {
			t.Fatalf("state %s why %v", s.State, reasonsText(s))
		}
		installed.Store(true)
		n.set(func() { delete(n.fail, "s"); n.servers["s"] = demoServer })
		if err := e.Reconnect(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("after reconnect: %s", s.State)
		}
		e.mu.Lock()
		why := e.byName["s"].blockers
		e.mu.Unlock()
		if len(why) != 0 {
			t.Errorf("PATH not re-checked: blockers %v", why)
		}
		if lookups.Load() < 2 || underLock.Load() != 0 {
			t.Errorf("%d PATH lookups, %d of them under the engine mutex", lookups.Load(), underLock.Load())
		}
	})
}
