// Package launch starts every program mcpdeck runs — stdio servers,
// headersHelper, oauth.assertionCommand, the sampling command, the browser
// opener, doctor's version check — and nothing else does. Each program is
// found once, by the one resolver (model.ResolveProgram), judged by managed
// policy (model.Policy.Judge) as that absolute file, and started from that
// same file: there is no second lookup and no fallback. A program that is
// not found fails with platform.ErrNotFound; one policy forbids fails with
// a *BlockedError naming the rule.
package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// Launcher starts programs under one managed policy, for one server or for
// mcpdeck itself. The zero Launcher has no policy rules. Its errors do not
// name the server: callers do.
type Launcher struct {
	// Policy judges every program before it starts.
	Policy model.Policy
	// Server is whose program it is, for serverName rules; "" for
	// mcpdeck's own programs.
	Server string
	// Project is the project's root, "" outside one: a sandboxed server
	// reads it (model/sandbox.Resolve).
	Project string
	// Sandbox is the server's own sandbox (nil: none): where its helpers
	// run when managed policy requires the server to be sandboxed.
	Sandbox *model.Sandbox
	// persons marks the person's own program run for the server (the
	// sampling command): judged as the server's, but no helper of it.
	persons bool
	// starting, when set, sees each command that is about to start, its
	// Path final (tests check that the program started is the one judged).
	starting func(*exec.Cmd)
	// mechanism, when set, replaces sandbox.FindMechanism (tests give a broken one).
	mechanism func() (sandbox.Mechanism, error)
}

// For is the launcher of srv's programs, under the policy srv was loaded
// with.
func For(srv model.Server) Launcher {
	return Launcher{Policy: srv.ManagedPolicy, Server: srv.Name, Sandbox: srv.Config.Sandbox}
}

// PersonsProgram is l for a program the person configured that runs for
// the server rather than as part of it (the sampling command, which
// answers the server's requests with the person's model): policy judges
// it as the server's program, but a sandbox requirement on the server
// does not put it in the server's sandbox, where it could not reach the
// model it calls.
func (l Launcher) PersonsProgram() Launcher { l.persons = true; return l }

// Own is the launcher of mcpdeck's own programs (the browser opener,
// doctor's checks) under policy p: serverCommand rules apply to them,
// serverName rules name no server of theirs.
func Own(p model.Policy) Launcher { return Launcher{Policy: p} }

// Spec is one program to start.
type Spec struct {
	What    string
	Command string   // a bare name looked up in PATH, or a path
	Args    []string // its arguments
	// Env is added to mcpdeck's environment, which never carries
	// mcpdeck's own credentials (model.OwnSecretVar) and, in a sandbox,
	// only what sandbox.ServerEnv passes; a PATH in it is where a bare
	// Command is looked up instead of mcpdeck's PATH.
	Env map[string]string
	// Dir is the working directory, taken relative to mcpdeck's; "" is
	// mcpdeck's. A Command with a path separator is relative to it.
	Dir string
	// Sandbox, when set, runs the program in that sandbox (Start only);
	// Net is its proxy when its network is a host list.
	Sandbox *model.Sandbox
	Net     *sandbox.Net
	// noShim starts the program as it is, never asking a version
	// manager (the manager's own query).
	noShim bool
}

// command finds s's program, judges it, and returns the command that
// starts exactly that file (Path set, never looked up again).
func (l Launcher) command(s Spec) (*exec.Cmd, error) {
	cmd, _, err := l.resolve(s)
	if err != nil {
		return nil, err
	}
	if l.starting != nil {
		l.starting(cmd)
	}
	return cmd, nil
}

// resolve finds and judges s's program: the command that starts exactly
// that file, and the program as judged.
func (l Launcher) resolve(s Spec) (*exec.Cmd, model.Program, error) {
	dir, err := filepath.Abs(s.Dir)
	if err != nil {
		return nil, model.Program{}, fmt.Errorf("working directory: %w", err)
	}
	prog, err := model.ResolveProgram(s.Command, s.Args, s.Env, dir, os.LookupEnv)
	if err != nil {
		return nil, prog, err
	}
	if d := l.Policy.Judge(l.Server, prog); !d.Allowed {
		return nil, prog, &BlockedError{Program: prog.Path, Rule: d.Rule}
	}
	cmd := &exec.Cmd{
		Path: prog.Path,
		Args: append([]string{s.Command}, s.Args...),
		Env:  mergeEnv(model.WithoutOwnSecrets(os.Environ()), s.Env),
		Dir:  dir,
	}
	return cmd, prog, nil
}

// Start starts s in its own process group with the given standard
// streams (nil is the null device) and returns the running group: in its
// sandbox when s has one; without one, only if managed policy does not
// require one of the server (sandboxedMcpServers).
func (l Launcher) Start(s Spec, stdin, stdout, stderr *os.File) (*platform.Group, error) {
	if s.Sandbox != nil {
		return l.startSandboxed(s, stdin, stdout, stderr)
	}
	cmd, prog, err := l.resolve(s)
	if err != nil {
		return nil, err
	}
	if rule, ok := l.Policy.RequiresSandbox(l.Server, prog); ok {
		return nil, &BlockedError{Program: prog.Path, Rule: rule}
	}
	if l.starting != nil {
		l.starting(cmd)
	}
	return startWith(cmd, stdin, stdout, stderr)
}

// startWith starts cmd as a group with the given standard streams (nil is
// the null device).
func startWith(cmd *exec.Cmd, stdin, stdout, stderr *os.File) (*platform.Group, error) {
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if stderr != nil {
		cmd.Stderr = stderr
	}
	return platform.StartGroup(cmd)
}

// mergeEnv returns base with overrides applied (overrides win, keys unique).
func mergeEnv(base []string, overrides map[string]string) []string {
	if len(overrides) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(overrides))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := overrides[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range overrides {
		out = append(out, k+"="+v)
	}
	return out
}
