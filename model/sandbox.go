package model

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// Sandbox is what a stdio server's definition asks of its sandbox: the
// "sandbox" field. `"sandbox": true` is the default profile; an object
// starts from a profile ("default" unless it says "profile") and adds the
// paths it lists and sets the network. The profile's contents (what
// "the system", "the server's package" and "the project" are on this
// machine) are worked out at launch by model/sandbox.Resolve; paths no
// definition can open (~/.ssh, the keychain, mcpdeck's own state...)
// stay closed whatever is listed.
type Sandbox struct {
	// Profile is the base: SandboxProfileDefault or SandboxProfileWriteProject.
	Profile string
	// Read and Write are extra paths to read, and to read and write, as
	// written: ~ and ${VAR} expand; a relative path is relative to the
	// directory the server runs in.
	Read  []string
	Write []string
	// Network is where the server may connect.
	Network SandboxNetwork
	// Sockets are unix sockets of the host the server may connect to,
	// as written (~ and ${VAR} expand). Without any, the server cannot
	// make a unix socket at all (socketpair aside); with some, that
	// refusal is lifted and the listed sockets appear in the sandbox,
	// never-list or not. Only a user-scope definition may list them:
	// a socket (the Docker daemon's, an agent's) is a door out of any
	// sandbox, and nothing a repository writes may open one.
	Sockets []string
	// Extra holds fields this version does not know; kept on rewrite.
	Extra map[string]json.RawMessage
	// ProjectRead and ProjectWrite mark the Read and Write entries
	// written with ${PROJECT_DIR}, by index (nil when none is): set when
	// the definition is expanded, never read from or written to a file.
	// With no project a sandbox may open, they open nothing.
	ProjectRead, ProjectWrite []bool
}

// NamesProject reports whether entry i of Write (write) or Read was
// written with ${PROJECT_DIR}.
func (s *Sandbox) NamesProject(write bool, i int) bool {
	marks := s.ProjectRead
	if write {
		marks = s.ProjectWrite
	}
	return i < len(marks) && marks[i]
}

// The sandbox profiles a definition can name.
const (
	// SandboxProfileDefault reads the system, the server's own package and
	// runtime, and the project (read-only); writes a private temporary
	// directory; has no network.
	SandboxProfileDefault = "default"
	// SandboxProfileWriteProject is the default profile with the project
	// writable too: for servers whose job is to edit it.
	SandboxProfileWriteProject = "write-project"
)

// SandboxProfiles lists the profile names, default first.
func SandboxProfiles() []string {
	return []string{SandboxProfileDefault, SandboxProfileWriteProject}
}

// SandboxNetwork is a sandbox's network: none (the zero value), all, or
// only the listed hosts ("api.github.com", "*.github.com"), reached through
// mcpdeck's proxy.
type SandboxNetwork struct {
	All   bool
	Hosts []string
}

// None reports whether the sandbox has no network at all.
func (n SandboxNetwork) None() bool { return !n.All && len(n.Hosts) == 0 }

// String is the network as a person reads it: "none", "all" or the hosts.
func (n SandboxNetwork) String() string {
	switch {
	case n.All:
		return "all"
	case len(n.Hosts) == 0:
		return "none"
	}
	return strings.Join(n.Hosts, ", ")
}

// AddHost returns n with host allowed (unchanged when it already is, or
// when n allows all).
func (n SandboxNetwork) AddHost(host string) SandboxNetwork {
	if n.All || slices.Contains(n.Hosts, host) {
		return n
	}
	n.Hosts = append(slices.Clone(n.Hosts), host)
	return n
}

// DefaultSandbox is `"sandbox": true`.
func DefaultSandbox() *Sandbox { return &Sandbox{Profile: SandboxProfileDefault} }

// IsPlainDefault reports whether s is the default profile with nothing
// added: written as `true`.
func (s *Sandbox) IsPlainDefault() bool {
	return s.Profile == SandboxProfileDefault && len(s.Read) == 0 && len(s.Write) == 0 &&
		s.Network.None() && len(s.Sockets) == 0 && len(s.Extra) == 0
}

// Summary is the sandbox in one line for lists and the overview:
// "default profile · network none", with the paths it adds.
func (s *Sandbox) Summary() string {
	if s == nil {
		return "none"
	}
	parts := []string{s.Profile + " profile"}
	if len(s.Read) > 0 {
		parts = append(parts, "read "+strings.Join(s.Read, ", "))
	}
	if len(s.Write) > 0 {
		parts = append(parts, "write "+strings.Join(s.Write, ", "))
	}
	parts = append(parts, "network "+s.Network.String())
	if len(s.Sockets) > 0 {
		parts = append(parts, "sockets "+strings.Join(s.Sockets, ", "))
	}
	return strings.Join(parts, " · ")
}

// SandboxKeys lists the fields of a sandbox object, in the documented
// order: the names an unknown one may be a typo of.
func SandboxKeys() []string { return []string{"profile", "read", "write", "network", "sockets"} }

// canonical is the sandbox as it is written and hashed: true for the plain
// default profile, else an object (profile always named, so `{}` and
// `{"profile":"default"}` hash alike).
func (s *Sandbox) canonical() any {
	if s.IsPlainDefault() {
		return true
	}
	m := map[string]any{"profile": s.Profile}
	if len(s.Read) > 0 {
		m["read"] = s.Read
	}
	if len(s.Write) > 0 {
		m["write"] = s.Write
	}
	switch {
	case s.Network.All:
		m["network"] = "all"
	case len(s.Network.Hosts) > 0:
		m["network"] = s.Network.Hosts
	}
	if len(s.Sockets) > 0 {
		m["sockets"] = s.Sockets
	}
	addExtra(m, s.Extra, func(k string) bool { return slices.Contains(SandboxKeys(), k) })
	return m
}

// MarshalJSON writes true for the plain default profile, else the object
// with its fields in the documented order (the profile only when it is
// not the default) and the unknown ones after, sorted.
func (s Sandbox) MarshalJSON() ([]byte, error) {
	if s.IsPlainDefault() {
		return []byte("true"), nil
	}
	w := newObjWriter()
	var network any
	switch {
	case s.Network.All:
		network = "all"
	case len(s.Network.Hosts) > 0:
		network = s.Network.Hosts
	}
	fields := []struct {
		key string
		v   any
		set bool
	}{
		{"profile", s.Profile, s.Profile != SandboxProfileDefault},
		{"read", s.Read, len(s.Read) > 0},
		{"write", s.Write, len(s.Write) > 0},
		{"network", network, network != nil},
		{"sockets", s.Sockets, len(s.Sockets) > 0},
	}
	for _, f := range fields {
		if f.set {
			if err := w.add(f.key, f.v); err != nil {
				return nil, err
			}
		}
	}
	if err := w.extra(s.Extra, func(k string) bool { return slices.Contains(SandboxKeys(), k) }); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

// blockedPrefix starts the log line of a connection a sandbox's proxy
// refused.
const blockedPrefix = "blocked connection to "

// SandboxBlockedNote is how a refused connection reads in the server's
// log: "blocked connection to api.example.com:443 at 2026-01-02T15:04:05Z
// (why)". hostPort is host:port ([v6]:port), why the proxy's reason.
func SandboxBlockedNote(hostPort string, at time.Time, why string) string {
	return blockedPrefix + hostPort + " at " + at.UTC().Format(time.RFC3339) + " (" + why + ")"
}
