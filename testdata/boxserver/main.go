// Command boxserver is an MCP stdio server for the sandbox's tests: each
// tool tries one thing a sandbox must allow or stop, and answers what
// happened in words ("error: ..." when the system refused).
//
// Tools: read{path} (the file's content), write{path,text} ("wrote N
// bytes"), dial{addr} (a direct TCP connection: "connected"), connect
// {target} (an HTTP CONNECT to target through $HTTPS_PROXY, then one
// line sent and one read back: "reply LINE"), spawn_read{path} (a child
// process, this program again, reads the file: its answer), pid{} (its
// own pid as it sees it), env{name} (the variable's value, "unset" when
// it is not), environ{} (every variable's name, sorted, one a line),
// unix_connect{path} (a connection to a unix socket: "connected"),
// socketpair{} (a connected pair of unix sockets: "pair").
//
// With -read PATH it prints the file (or "error: ...") and exits: the
// child of spawn_read.
package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	read := flag.String("read", "", "print this file and exit")
	flag.Parse()
	if *read != "" {
		fmt.Print(readFile(*read))
		return
	}
	s := server.NewMCPServer("boxserver", "1.0.0", server.WithToolCapabilities(false))
	tool := func(name, desc string, args []string, f func(map[string]string) string) {
		opts := []mcp.ToolOption{mcp.WithDescription(desc)}
		for _, a := range args {
			opts = append(opts, mcp.WithString(a, mcp.Required()))
		}
		s.AddTool(mcp.NewTool(name, opts...), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := map[string]string{}
			for _, a := range args {
				in[a] = r.GetString(a, "")
			}
			return mcp.NewToolResultText(f(in)), nil
		})
	}
	tool("read", "Read a file", []string{"path"}, func(a map[string]string) string { return readFile(a["path"]) })
	tool("write", "Write a file", []string{"path", "text"}, func(a map[string]string) string {
		if err := os.WriteFile(a["path"], []byte(a["text"]), 0o600); err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("wrote %d bytes", len(a["text"]))
	})
	tool("dial", "Connect directly over TCP", []string{"addr"}, func(a map[string]string) string {
		c, err := net.DialTimeout("tcp", a["addr"], 2*time.Second)
		if err != nil {
			return "error: " + err.Error()
		}
		_ = c.Close()
		return "connected"
	})
	tool("connect", "Connect through the HTTPS proxy", []string{"target"}, func(a map[string]string) string { return viaProxy(a["target"]) })
	tool("spawn_read", "A child process reads a file", []string{"path"}, func(a map[string]string) string {
		self, err := os.Executable()
		if err != nil {
			return "error: " + err.Error()
		}
		out, err := exec.Command(self, "-read", a["path"]).Output()
		if err != nil {
			return "error: child: " + err.Error()
		}
		return string(out)
	})
	tool("say", "Write a line to stderr", []string{"text"}, func(a map[string]string) string {
		fmt.Fprintln(os.Stderr, a["text"])
		return "said"
	})
	tool("env", "One environment variable", []string{"name"}, func(a map[string]string) string {
		if v, ok := os.LookupEnv(a["name"]); ok {
			return v
		}
		return "unset"
	})
	tool("environ", "The environment's names", nil, func(map[string]string) string {
		var names []string
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			names = append(names, name)
		}
		sort.Strings(names)
		return strings.Join(names, "\n")
	})
	tool("unix_connect", "Connect to a unix socket", []string{"path"}, func(a map[string]string) string {
		c, err := net.DialTimeout("unix", a["path"], 2*time.Second)
		if err != nil {
			return "error: " + err.Error()
		}
		_ = c.Close()
		return "connected"
	})
	tool("socketpair", "Make a connected pair of unix sockets", nil, func(map[string]string) string { return socketPair() })
	tool("pid", "This process's pid as it sees it", nil, func(map[string]string) string { return fmt.Sprint(os.Getpid()) })
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// viaProxy opens a tunnel to target (host:port) with HTTP CONNECT through
// $HTTPS_PROXY (with its user and password, when it has them), sends "ping" and returns the line that comes back.
func viaProxy(target string) string {
	p := os.Getenv("HTTPS_PROXY")
	if p == "" {
		return "error: HTTPS_PROXY is not set"
	}
	u, err := url.Parse(p)
	if err != nil {
		return "error: " + err.Error()
	}
	c, err := net.DialTimeout("tcp", u.Host, 2*time.Second)
	if err != nil {
		return "error: " + err.Error()
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	auth := "" // the proxy's credential, from the URL's user information, as curl sends it
	if pass, ok := u.User.Password(); ok {
		auth = "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass)) + "\r\n"
	}
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n%s\r\n", target, target, auth)
	br := bufio.NewReader(c)
	status, err := br.ReadString('\n')
	if err != nil {
		return "error: " + err.Error()
	}
	if !strings.Contains(status, " 200") {
		return "refused: " + strings.TrimSpace(status)
	}
	for { // the rest of the proxy's answer
		l, err := br.ReadString('\n')
		if err != nil {
			return "error: " + err.Error()
		}
		if strings.TrimSpace(l) == "" {
			break
		}
	}
	fmt.Fprintln(c, "ping")
	reply, err := br.ReadString('\n')
	if err != nil {
		return "error: " + err.Error()
	}
	return "reply " + strings.TrimSpace(reply)
}
