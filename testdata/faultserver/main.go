// Command faultserver is an MCP server (mcp-go) for tests that can be told to
// misbehave. It speaks stdio by default.
//
// Transports:
//
//	-http ADDR   streamable HTTP on ADDR, endpoint /mcp (or -path)
//	-sse ADDR    legacy HTTP+SSE on ADDR, endpoints /sse and /message
//	-ws ADDR     WebSocket (subprotocol "mcp") on ADDR, endpoint /ws
//
// For network modes the first stderr line is "listening on URL" (use
// 127.0.0.1:0 for a free port).
//
// Faults (flags):
//
//	-exit-after D       exit with -exit-code after duration D
//	-exit-code N        exit code for -exit-after and the crash tool (default 3)
//	-hang-init          never answer initialize
//	-delay D            delay every incoming message by D (slow server)
//	-expire-after N     HTTP: after N requests in a session, answer that session with 404
//	-expire-jsonrpc     with -expire-after: answer HTTP 200 + JSON-RPC error -32001 instead of 404
//	-stderr-mb N        write N MB to stderr before serving
//	-malformed-first    stdio: write a malformed JSON-RPC line before anything else
//	-tools N            add N generated tools ...
//	-desc-kb K          ... with K KB descriptions full of control/bidi characters (pages of 100)
//	-old-protocol V     behave like an old server: ignore server/discover, answer initialize with version V
//	-unknown M,N        stdio: methods the server does not know besides server/discover and
//	                    subscriptions/listen (known with -modern); answered "method not found"
//	-die-on-unknown-method    stdio: exit with code 4 on a request the server does not know
//	                    (server/discover unless -modern), printing "unknown method M" on stderr
//	-close-on-unknown-method  stdio: close stdout instead, and keep running
//	-ignore-signals     stdio: ignore SIGINT and SIGTERM, logging "got signal NAME" to stderr
//	-spawn-grandchild   start a child process (same group) that sleeps; logs "grandchild pid N"
//	-spawn-daemon       start a child process in a session of its own (setsid), with an empty
//	                    environment, that sleeps, as a daemonizing server does; logs "daemon pid N" (unix)
//	-daemonize          start a daemon that sleeps, as a double fork does: a child in a new session
//	                    (setsid) starts it and exits, so it is nobody's child; logs "daemon pid N"
//	-sleep              do nothing but sleep (used for the grandchild)
//	-start-delay D      wait D before serving, idle (like an npx download)
//	-gate PATH          before serving, read one byte (or the end) from PATH: a FIFO the test
//	                    writes a byte to for each start it lets happen
//	-stateless          HTTP: stateless streamable server (no session id)
//	-hostile            serve names, URIs, results and stderr full of terminal escapes (hostile.go)
//	-leak-env NAME      print the value of env NAME on stderr and put it in the description of a tool "leak" (leak.go)
//	-stderr-file PATH   print the file's content on stderr before serving
//	-leak-auth          HTTP: put the credential of the initialize request's Authorization header (scheme dropped) in the instructions
//	-leak-path          HTTP: put the path of the initialize request's URL in the instructions ("served at PATH")
//	-say TEXT           print "saying TEXT" on stderr and put TEXT in the instructions
//	-say-client         put "client NAME VERSION" (from initialize) in the instructions
//	-log-after-level D  D after the client's logging/setLevel, send one info log message
//	                    ("told D after the level was set"), as a server finishing its start does
//	-tools-file PATH    serve only the tools PATH lists ([{"name","description","inputSchema"}]), read at start
//	-path PATH          HTTP: serve streamable HTTP at PATH instead of /mcp
//	-public URL         SSE: the base URL clients reach the server at (a proxy in front of it), announced
//	                    in the endpoint event instead of the server's own address
//	-ask                add what asks for input: tool interview{} (two input-required rounds: name, then colour;
//	                    "NAME likes COLOUR"), tool visit{} (URL elicitation: "visit: ACTION"),
//	                    prompt greet (one round: "Hello NAME"), resource fault://ask
//	                    (elicitation/create during the read: "resource for NAME"; sessions before 2026-07-28 only),
//	                    tool ask_many{count} (one input-required round asking count questions at once:
//	                    "COUNT answers")
//	-crash-everywhere   add the resource fault://crash and the prompt crash, which exit with -exit-code
//	                    like the crash tool (crash.go)
//	-elicit-flood N     stdio: once the client is initialized, send N elicitation/create requests at once;
//	                    tool flood_answers{want} waits for want answers and tallies them by JSON-RPC error (flood.go)
//	-sample-flood N     the same with N sampling/createMessage requests
//
// Tools: pids{} ({"pid":N,"grandchild":M,"daemon":D}), echo{text}, add{a,b}, env{name}, cwd{}, progress{steps} (progress
// notifications to the call's token), elicit{message} (form elicitation,
// returns the answer as JSON), sample{prompt} (asks for the client's model's
// reply in an input-required round, returns "MODEL: REPLY"), roots{} (asks the client for roots),
// list_changed{} (adds a tool, so tools/list_changed is sent), crash{code},
// hang{}, stall{} (asks to go on, says "stalling" on stderr, then hangs: over
// HTTP the answer is then due on the call's own event stream), slow{ms},
// drop{} (closes the connection mid-call: HTTP hijack and close, stdio
// closes stdout), flood{count} (count log notifications), log{text} (one warning log notification),
// stderr{mb}, malformed{} (stdio: writes a broken line, then answers),
// huge{mb} (stdio: writes one message line of mb MB).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

type config struct {
	httpAddr, sseAddr, wsAddr            string
	exitAfter                            time.Duration
	exitCode                             int
	hangInit                             bool
	delay                                time.Duration
	expireAfter                          int
	expireJSONRPC                        bool
	stderrMB                             int
	malformedFirst                       bool
	tools, descKB, descBytes             int
	onePage, plainDesc                   bool
	oldProtocol                          string
	modern                               bool
	unknown                              string
	dieOnUnknown                         bool
	closeOnUnknown                       bool
	ignoreSignals                        bool
	spawnGrandchild                      bool
	spawnDaemon, daemonize, daemonParent bool
	sleep                                bool
	startDelay                           time.Duration
	gate                                 string
	stateless                            bool
	hostile                              bool
	leakEnv, stderrFile                  string
	leakAuth, leakPath                   bool
	say, path, public                    string
	logAfterLevel                        time.Duration
	sayClient                            bool
	ask, crashEverywhere                 bool
	elicitFlood, sampleFlood             int
	toolsFile                            string
}

// grandchildPID is the pid started by -spawn-grandchild (0 if none);
// daemonPID the one -daemonize left behind.
var grandchildPID, daemonPID atomic.Int64

func main() {
	var c config
	flag.StringVar(&c.httpAddr, "http", "", "serve streamable HTTP on ADDR")
	flag.StringVar(&c.sseAddr, "sse", "", "serve legacy SSE on ADDR")
	flag.StringVar(&c.wsAddr, "ws", "", "serve WebSocket on ADDR")
	flag.DurationVar(&c.exitAfter, "exit-after", 0, "exit after this long")
	flag.IntVar(&c.exitCode, "exit-code", 3, "exit code")
	flag.BoolVar(&c.hangInit, "hang-init", false, "never answer initialize")
	flag.DurationVar(&c.delay, "delay", 0, "delay every message")
	flag.IntVar(&c.expireAfter, "expire-after", 0, "expire HTTP sessions after N requests")
	flag.BoolVar(&c.expireJSONRPC, "expire-jsonrpc", false, "expire with JSON-RPC -32001 instead of 404")
	flag.IntVar(&c.stderrMB, "stderr-mb", 0, "write N MB to stderr first")
	flag.BoolVar(&c.malformedFirst, "malformed-first", false, "write a malformed line first (stdio)")
	flag.IntVar(&c.tools, "tools", 0, "number of generated tools")
	flag.IntVar(&c.descKB, "desc-kb", 1, "description size of generated tools in KB")
	flag.IntVar(&c.descBytes, "desc-bytes", 0, "description size of generated tools in bytes (overrides -desc-kb)")
	flag.BoolVar(&c.onePage, "one-page", false, "list the generated tools in one page")
	flag.BoolVar(&c.plainDesc, "plain-desc", false, "generated descriptions in plain words (else full of control characters)")
	flag.StringVar(&c.oldProtocol, "old-protocol", "", "act as an old server speaking this version (and ignoring server/discover)")
	flag.BoolVar(&c.modern, "modern", false, "answer server/discover: speak 2026-07-28 too (otherwise act like a 2025-11-25 server, which does not know the method)")
	flag.StringVar(&c.unknown, "unknown", "", "comma-separated request methods the server does not know besides those of 2026-07-28 (stdio)")
	flag.BoolVar(&c.dieOnUnknown, "die-on-unknown-method", false, "exit with code 4 on a request the server does not know, as some old servers do (stdio)")
	flag.BoolVar(&c.closeOnUnknown, "close-on-unknown-method", false, "close stdout on a request the server does not know, and keep running (stdio)")
	flag.BoolVar(&c.ignoreSignals, "ignore-signals", false, "ignore SIGINT/SIGTERM")
	flag.BoolVar(&c.spawnGrandchild, "spawn-grandchild", false, "spawn a sleeping child")
	flag.BoolVar(&c.spawnDaemon, "spawn-daemon", false, "spawn a sleeping child in a session of its own (setsid)")
	flag.BoolVar(&c.daemonize, "daemonize", false, "leave a sleeping daemon (setsid, double fork)")
	flag.BoolVar(&c.daemonParent, "daemon-parent", false, "start a sleeper in a new session, print its pid, exit (for -daemonize)")
	flag.BoolVar(&c.sleep, "sleep", false, "just sleep")
	flag.DurationVar(&c.startDelay, "start-delay", 0, "wait this long before serving, idle (like an npx download)")
	flag.StringVar(&c.gate, "gate", "", "before serving, read one byte (or the end) from this file: a FIFO a test writes to let the server start")
	flag.BoolVar(&c.stateless, "stateless", false, "stateless streamable HTTP")
	flag.BoolVar(&c.hostile, "hostile", false, "serve hostile strings everywhere")
	flag.StringVar(&c.leakEnv, "leak-env", "", "print env NAME's value on stderr and in a tool's description")
	flag.StringVar(&c.stderrFile, "stderr-file", "", "print this file's content on stderr before serving")
	flag.BoolVar(&c.leakAuth, "leak-auth", false, "put the Authorization credential in the instructions (HTTP)")
	flag.IntVar(&c.elicitFlood, "elicit-flood", 0, "stdio: once initialized, send N elicitation/create requests at once (flood.go)")
	flag.IntVar(&c.sampleFlood, "sample-flood", 0, "stdio: once initialized, send N sampling/createMessage requests at once (flood.go)")
	flag.BoolVar(&c.leakPath, "leak-path", false, "put the path of the initialize request's URL in the instructions (HTTP)")
	flag.StringVar(&c.say, "say", "", "print TEXT on stderr and put it in the instructions")
	flag.BoolVar(&c.sayClient, "say-client", false, "put the client's name and version (initialize) in the instructions")
	flag.DurationVar(&c.logAfterLevel, "log-after-level", 0, "send an info log message this long after logging/setLevel")
	flag.StringVar(&c.toolsFile, "tools-file", "", "serve only the tools this JSON file lists, read at start (toolsfile.go)")
	flag.StringVar(&c.path, "path", "/mcp", "the streamable HTTP endpoint's path")
	flag.StringVar(&c.public, "public", "", "SSE: the base URL clients reach the server at (a proxy in front), announced in the endpoint event")
	flag.BoolVar(&c.ask, "ask", false, "serve the tool interview, the prompt greet and the resource fault://ask, which ask for input (ask.go)")
	flag.BoolVar(&c.crashEverywhere, "crash-everywhere", false, "serve the resource fault://crash and the prompt crash, which exit like the crash tool (crash.go)")
	flag.Parse()
	os.Exit(run(c))
}

func run(c config) int {
	if c.sleep {
		for { // not select{}: with no other goroutine, Go on Windows calls that a deadlock and exits
			time.Sleep(time.Hour)
		}
	}
	if c.daemonParent {
		return startDaemon()
	}
	time.Sleep(c.startDelay)
	if c.gate != "" {
		if err := waitGate(c.gate); err != nil {
			fmt.Fprintln(os.Stderr, "gate:", err)
			return 1
		}
	}
	if c.ignoreSignals {
		ch := make(chan os.Signal, 4)
		signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			for s := range ch {
				fmt.Fprintf(os.Stderr, "got signal %s\n", s)
			}
		}()
	}
	if c.spawnGrandchild {
		self, _ := os.Executable()
		cmd := exec.Command(self, "-sleep")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "spawn grandchild:", err)
			return 1
		}
		grandchildPID.Store(int64(cmd.Process.Pid))
		fmt.Fprintf(os.Stderr, "grandchild pid %d\n", cmd.Process.Pid)
	}
	if c.spawnDaemon {
		if err := spawnDaemon(); err != nil {
			fmt.Fprintln(os.Stderr, "spawn daemon:", err)
			return 1
		}
	}
	if c.daemonize {
		self, _ := os.Executable()
		out, err := exec.Command(self, "-daemon-parent").Output()
		pid, perr := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil || perr != nil {
			fmt.Fprintln(os.Stderr, "daemonize:", err, perr)
			return 1
		}
		daemonPID.Store(int64(pid))
		fmt.Fprintf(os.Stderr, "daemon pid %d\n", pid)
	}
	if c.exitAfter > 0 {
		time.AfterFunc(c.exitAfter, func() {
			fmt.Fprintf(os.Stderr, "exiting with code %d as asked\n", c.exitCode)
			os.Exit(c.exitCode)
		})
	}
	if c.stderrMB > 0 {
		floodStderr(c.stderrMB)
	}
	if c.stderrFile != "" {
		b, err := os.ReadFile(c.stderrFile)
		if err != nil {
			b = []byte(err.Error())
		}
		fmt.Fprintf(os.Stderr, "%s\n", b)
	}
	ctx := context.Background()
	var err error
	switch {
	case c.httpAddr != "":
		err = serveHTTP(ctx, c)
	case c.sseAddr != "":
		err = serveSSE(ctx, c)
	case c.wsAddr != "":
		err = serveWS(ctx, c)
	default:
		err = serveStdio(ctx, c)
	}
	if c.ignoreSignals {
		select {} // outlive stdin EOF too: only SIGKILL ends us
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
		return 1
	}
	return 0
}

// floodStderr writes mb megabytes of 100-byte lines to stderr.
func floodStderr(mb int) {
	line := []byte(fmt.Sprintf("%099d\n", 0))
	buf := make([]byte, 0, 1<<20)
	for len(buf)+len(line) <= 1<<20 {
		buf = append(buf, line...)
	}
	for range mb {
		_, _ = os.Stderr.Write(buf)
	}
	fmt.Fprintln(os.Stderr, "stderr flood done")
}

// waitGate reads one byte, or the end, from path: a test holds the server
// back until it writes to the FIFO there.
func waitGate(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.Read(b[:]); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
