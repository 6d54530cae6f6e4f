package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// writeLog counts the writes made through mcpdeck and those that did not
// land, or left a file that does not parse.
type writeLog struct {
	mu      sync.Mutex
	n       int
	refused []string // writes mcpdeck refused, saying why (not lost: the person was told)
	lost    []string
	nLost   int
	verbose bool
}

func (l *writeLog) done(what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if err != nil {
		l.nLost++
		if len(l.lost) < maxSamples {
			l.lost = append(l.lost, what+": "+err.Error())
		}
		if l.verbose {
			fmt.Fprintf(os.Stderr, "soak: write lost: %s: %v\n", what, err)
		}
	}
}

func (l *writeLog) refuse(what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.refused) < maxSamples {
		l.refused = append(l.refused, what+": "+err.Error())
	}
}

// listed is one server as `mcp list --no-connect --json` shows it.
type listed struct {
	Name     string `json:"name"`
	Scope    string `json:"scope"`
	Hash     string `json:"hash"`
	Enabled  bool   `json:"enabled"`
	Runnable bool   `json:"runnable"`
	Approval struct {
		Status       string `json:"status"`
		ApprovedHash string `json:"approvedHash"`
	} `json:"approval"`
}

// writers run mcpdeck's own writers (mcp add, remove, approve, reject,
// enable, disable, secret) at once, and the person's editor on the two
// config files (edits, a broken file for a few seconds, the file
// restored), checking every write right after it returns and at the end.
type writers struct {
	w       *world
	servers []*server
	log     *writeLog
	counts  *faultCounts

	// editing is held alone while a config file is broken on purpose, and
	// shared by each of mcpdeck's writes and its check: a write while a
	// file is broken is checked apart (brokenWrite).
	editing sync.RWMutex

	mu      sync.Mutex
	added   map[string]bool   // user servers mcp add made and mcp remove did not remove yet
	secrets map[string]string // "SERVER/NAME" → the value last stored
	project map[string]any    // .mcp.json's servers as last written whole
	edited  map[string]bool   // project servers whose definition the run changed
	next    int
}

func newWriters(w *world, servers []*server, log *writeLog, counts *faultCounts) (*writers, error) {
	wr := &writers{w: w, servers: servers, log: log, counts: counts, added: map[string]bool{}, secrets: map[string]string{}, edited: map[string]bool{}}
	var f struct {
		MCPServers map[string]any `json:"mcpServers"`
	}
	b, err := os.ReadFile(w.projectFile())
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	wr.project = f.MCPServers
	return wr, nil
}

// The servers each writer owns, so that checks never race another writer.
const (
	rejectOwned   = "pst01"             // approve and reject
	disableOwned1 = "st01"              // disable and enable
	disableOwned2 = "pold01"            // disable and enable (a project server)
	secretOwned1  = "st03"              // secrets, by one writer
	secretOwned2  = "st04"              // secrets, by another at once
	addPrefix1    = "ua"                // servers one writer adds (mcp add) and removes
	addPrefix2    = "ub"                // servers another adds and removes at once
	refusedPrefix = "uz"                // servers added while a file is broken (refused)
	brokenJSON    = `{"mcpServers": {"` // what a half-saved file holds
)

// run runs the writers until ctx ends, then puts everything back as it
// was at the start (the added servers removed, every project server
// approved and enabled) and checks it.
func (wr *writers) run(ctx context.Context, rnd *rand.Rand) {
	var wg sync.WaitGroup
	every := func(f func(*rand.Rand)) {
		r := rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64()))
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Duration(800+r.IntN(2200)) * time.Millisecond):
				}
				f(r)
			}
		})
	}
	every(func(r *rand.Rand) { wr.userWrite(r, addPrefix1) })
	every(func(r *rand.Rand) { wr.userWrite(r, addPrefix2) })
	every(wr.localWrite)
	every(func(r *rand.Rand) { wr.secretWrite(r, secretOwned1) })
	every(func(r *rand.Rand) { wr.secretWrite(r, secretOwned2) })
	every(wr.projectEdit)
	every(wr.breakFile)
	wg.Wait()
	wr.restore(context.Background())
}

// userWrite adds a server named with prefix to the user scope (mcp add)
// or removes one it added, and checks settings.json. Two run at once,
// each with its own prefix.
func (wr *writers) userWrite(r *rand.Rand, prefix string) {
	wr.editing.RLock()
	defer wr.editing.RUnlock()
	wr.mu.Lock()
	var alive []string
	for n := range wr.added {
		if strings.HasPrefix(n, prefix) {
			alive = append(alive, n)
		}
	}
	sort.Strings(alive)
	wr.mu.Unlock()
	ctx := context.Background()
	if len(alive) < 2 || (len(alive) < 4 && r.IntN(2) == 0) {
		wr.mu.Lock()
		wr.next++
		name := fmt.Sprintf("%s%03d", prefix, wr.next)
		wr.mu.Unlock()
		_, err := wr.w.cli(ctx, nil, "mcp", "add", "-s", "user", "-e", runEnv+"="+wr.w.runID, "-e", serverEnv+"="+name, name, "--", wr.w.faultBin)
		if err != nil {
			wr.log.refuse("mcp add "+name, err)
			return
		}
		wr.mu.Lock()
		wr.added[name] = true
		wr.mu.Unlock()
		wr.log.done("mcp add -s user "+name, wr.checkUser(prefix))
		return
	}
	name := alive[r.IntN(len(alive))]
	if _, err := wr.w.cli(ctx, nil, "mcp", "remove", "-s", "user", name); err != nil {
		wr.log.refuse("mcp remove "+name, err)
		return
	}
	wr.mu.Lock()
	delete(wr.added, name)
	wr.mu.Unlock()
	wr.log.done("mcp remove -s user "+name, wr.checkUser(prefix))
}

// checkUser: settings.json parses and holds the fleet's user servers and
// exactly the added ones named with prefix ("": every name, exactly the
// fleet's and the added ones). A writer checks its own prefix only: the
// other's write may land between its own and its check.
func (wr *writers) checkUser(prefix string) error {
	var f struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	b, err := os.ReadFile(wr.w.userSettings())
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("settings.json does not parse: %w", err)
	}
	want := map[string]bool{}
	for _, s := range wr.servers {
		if s.scope == "user" {
			want[s.name] = true
		}
	}
	wr.mu.Lock()
	for n := range wr.added {
		if strings.HasPrefix(n, prefix) {
			want[n] = true
		}
	}
	wr.mu.Unlock()
	var missing, extra []string
	for n := range want {
		if _, ok := f.MCPServers[n]; !ok {
			missing = append(missing, n)
		}
	}
	for n := range f.MCPServers {
		if !want[n] && (prefix == "" || strings.HasPrefix(n, prefix)) {
			extra = append(extra, n)
		}
	}
	if len(missing)+len(extra) > 0 {
		sort.Strings(missing)
		sort.Strings(extra)
		return fmt.Errorf("settings.json: missing %v, unexpected %v", missing, extra)
	}
	return nil
}

// list is `mcp list --no-connect --json`: every server as mcpdeck reads
// the files now.
func (wr *writers) list(ctx context.Context) (map[string]listed, error) {
	out, err := wr.w.cli(ctx, nil, "mcp", "list", "--no-connect", "--json")
	if err != nil && !strings.HasPrefix(strings.TrimSpace(out), "{") {
		return nil, err
	}
	var l struct {
		Servers  []listed `json:"servers"`
		Problems []any    `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		return nil, fmt.Errorf("mcp list --json: %w", err)
	}
	m := map[string]listed{}
	for _, s := range l.Servers {
		m[s.Name] = s
	}
	return m, nil
}

// localWrite rejects or approves rejectOwned, or disables or enables one
// of the disable-owned servers, and checks what mcpdeck reads back and
// that the private state parses.
func (wr *writers) localWrite(r *rand.Rand) {
	wr.editing.RLock()
	defer wr.editing.RUnlock()
	ctx := context.Background()
	name := []string{rejectOwned, disableOwned1, disableOwned2}[r.IntN(3)]
	before, err := wr.list(ctx)
	if err != nil {
		wr.log.done("mcp list before a local write", err)
		return
	}
	cur, ok := before[name]
	if !ok {
		wr.log.done("local write", fmt.Errorf("%s is not listed", name))
		return
	}
	var args []string
	var check func(listed) error
	switch {
	case name == rejectOwned && cur.Approval.Status == "approved":
		args = []string{"mcp", "reject", name}
		check = func(s listed) error {
			return want(s.Approval.Status == "rejected", "approval %q, want rejected", s.Approval.Status)
		}
	case name == rejectOwned:
		args = []string{"mcp", "approve", name}
		check = func(s listed) error {
			return want(s.Approval.Status == "approved" && s.Approval.ApprovedHash == s.Hash, "approval %q of hash %.8s, want approved of %.8s", s.Approval.Status, s.Approval.ApprovedHash, s.Hash)
		}
	case cur.Enabled:
		args = []string{"mcp", "disable", name}
		check = func(s listed) error { return want(!s.Enabled, "enabled, want disabled") }
	default:
		args = []string{"mcp", "enable", name}
		check = func(s listed) error { return want(s.Enabled, "disabled, want enabled") }
	}
	what := strings.Join(args[1:], " ")
	if _, err := wr.w.cli(ctx, nil, args...); err != nil {
		wr.log.refuse(what, err)
		return
	}
	wr.log.done(what, wr.checkLocal(ctx, name, check))
}

func want(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// checkLocal reads the servers back and checks one, and that the
// private state parses.
func (wr *writers) checkLocal(ctx context.Context, name string, check func(listed) error) error {
	p, err := wr.w.privateState()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !json.Valid(b) {
		return fmt.Errorf("the private state %s does not parse", p)
	}
	after, err := wr.list(ctx)
	if err != nil {
		return err
	}
	s, ok := after[name]
	if !ok {
		return fmt.Errorf("%s is no longer listed", name)
	}
	return check(s)
}

// secretWrite stores a new value for one of server's secrets (mcp
// secret) and checks the store. Two run at once, each on its own server.
func (wr *writers) secretWrite(r *rand.Rand, server string) {
	wr.editing.RLock()
	defer wr.editing.RUnlock()
	key := []string{"TOKEN", "OTHER"}[r.IntN(2)]
	value := "v-" + randomHex(8)
	what := fmt.Sprintf("mcp secret %s %s", server, key)
	if _, err := wr.w.cli(context.Background(), []string{"MCPDECK_SECRET_VALUE=" + value}, "mcp", "secret", "-s", "user", server, key); err != nil {
		wr.log.refuse(what, err)
		return
	}
	wr.mu.Lock()
	wr.secrets[server+"/"+key] = value
	wr.mu.Unlock()
	wr.log.done(what, wr.checkSecrets(server))
}

// checkSecrets: credentials.json parses and holds the values last stored
// for server ("": for every server).
func (wr *writers) checkSecrets(only string) error {
	b, err := os.ReadFile(wr.w.credentials())
	if err != nil {
		return err
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("credentials.json does not parse: %w", err)
	}
	wr.mu.Lock()
	defer wr.mu.Unlock()
	for k, v := range wr.secrets {
		server, key, _ := strings.Cut(k, "/")
		if only != "" && server != only {
			continue
		}
		if got := m["secret:user::"+server+":"+key]; got != v {
			return fmt.Errorf("credentials.json: %s of %s is %q, want %q", key, server, got, v)
		}
	}
	return nil
}

// churnable are the project servers the editor changes.
func (wr *writers) churnable() []string {
	var out []string
	for _, s := range wr.servers {
		if s.scope == "project" && s.name != rejectOwned && s.name != disableOwned2 {
			out = append(out, s.name)
		}
	}
	return out
}

// projectEdit changes one project server's definition in .mcp.json as
// the person's editor would (so mcpdeck asks for approval again), then
// approves it with mcp approve and checks the approval.
func (wr *writers) projectEdit(r *rand.Rand) {
	names := wr.churnable()
	name := names[r.IntN(len(names))]
	wr.editing.RLock()
	defer wr.editing.RUnlock()
	wr.mu.Lock()
	def := clone(wr.project[name])
	wr.next++
	tag := fmt.Sprintf("edit-%d", wr.next)
	if u, ok := def["url"].(string); ok {
		base, _, _ := strings.Cut(u, "?")
		def["url"] = base + "?v=" + tag
	} else {
		args, _ := def["args"].([]any)
		var kept []any
		for i := 0; i < len(args); i++ {
			if args[i] == "-say" {
				i++
				continue
			}
			kept = append(kept, args[i])
		}
		def["args"] = append(kept, "-say", tag)
	}
	wr.project[name] = def
	wr.edited[name] = true
	all := map[string]any{"mcpServers": wr.project}
	wr.mu.Unlock()
	if err := writeJSON(wr.w.projectFile(), all); err != nil {
		wr.log.refuse("editing .mcp.json", err)
		return
	}
	wr.counts.add("config_edit")
	time.Sleep(time.Duration(300+r.IntN(1500)) * time.Millisecond) // the person reads the prompt
	wr.approve(context.Background(), name)
}

// approve approves a project server and checks that the approval is of
// its current definition.
func (wr *writers) approve(ctx context.Context, name string) {
	if _, err := wr.w.cli(ctx, nil, "mcp", "approve", name); err != nil {
		wr.log.refuse("mcp approve "+name, err)
		return
	}
	wr.log.done("mcp approve "+name, wr.checkLocal(ctx, name, func(s listed) error {
		return want(s.Approval.Status == "approved" && s.Approval.ApprovedHash == s.Hash, "approval %q of hash %.8s, want approved of %.8s", s.Approval.Status, s.Approval.ApprovedHash, s.Hash)
	}))
}

func clone(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// breakFile breaks .mcp.json (mostly) or settings.json for a few seconds
// as a half-saved file, written in place as many editors do; one of
// mcpdeck's writes meanwhile must be refused and leave the file as the
// person left it; then the file is restored.
func (wr *writers) breakFile(r *rand.Rand) {
	if r.IntN(3) != 0 {
		return // a break every third turn: an edit is the common case
	}
	path, scope := wr.w.projectFile(), "project"
	if r.IntN(4) == 0 {
		path, scope = wr.w.userSettings(), "user"
	}
	wr.editing.Lock()
	defer wr.editing.Unlock()
	good, err := os.ReadFile(path)
	if err != nil {
		wr.log.refuse("reading "+path, err)
		return
	}
	if err := os.WriteFile(path, []byte(brokenJSON), 0o644); err != nil {
		wr.log.refuse("breaking "+path, err)
		return
	}
	wr.counts.add("config_broken")
	time.Sleep(time.Duration(500+r.IntN(1500)) * time.Millisecond)
	wr.brokenWrite(path, scope)
	time.Sleep(time.Duration(500+r.IntN(2500)) * time.Millisecond)
	if err := writeAtomic(path, good); err != nil {
		wr.log.done("restoring "+path, err)
	}
}

// brokenWrite adds a server to a scope whose file is broken: mcpdeck must
// refuse, naming the file, and leave the file as it is (a write would
// lose what the person was typing).
func (wr *writers) brokenWrite(path, scope string) {
	wr.mu.Lock()
	wr.next++
	name := fmt.Sprintf("%s%03d", refusedPrefix, wr.next)
	wr.mu.Unlock()
	_, err := wr.w.cli(context.Background(), nil, "mcp", "add", "-s", scope, name, "--", wr.w.faultBin)
	b, rerr := os.ReadFile(path)
	what := fmt.Sprintf("mcp add -s %s %s while %s is broken", scope, name, path)
	switch {
	case rerr != nil:
		wr.log.done(what, rerr)
	case !bytes.Equal(b, []byte(brokenJSON)):
		wr.log.done(what, fmt.Errorf("the broken file was rewritten (%d bytes now): the person's half-saved text is gone", len(b)))
	case err == nil:
		wr.log.done(what, fmt.Errorf("it succeeded, but the file still holds only the broken text: the server was not written"))
	case !strings.Contains(err.Error(), path) && !strings.Contains(err.Error(), "json"):
		wr.log.done(what, fmt.Errorf("refused without naming the file: %v", err))
	default:
		wr.log.done(what, nil)
	}
}

// restore puts the config back as it was at the start: every server the
// run added removed, every project server's first definition back and
// approved, every server enabled. Each is a write checked like the rest.
func (wr *writers) restore(ctx context.Context) {
	wr.mu.Lock()
	var alive []string
	for n := range wr.added {
		alive = append(alive, n)
	}
	wr.mu.Unlock()
	sort.Strings(alive)
	for _, name := range alive {
		if _, err := wr.w.cli(ctx, nil, "mcp", "remove", "-s", "user", name); err != nil {
			wr.log.done("mcp remove -s user "+name+" (restoring)", err)
			continue
		}
		wr.mu.Lock()
		delete(wr.added, name)
		wr.mu.Unlock()
		wr.log.done("mcp remove -s user "+name+" (restoring)", wr.checkUser(""))
	}
	orig := map[string]any{}
	for _, s := range wr.servers {
		if s.scope == "project" {
			orig[s.name] = s.definition(wr.w)
		}
	}
	wr.mu.Lock()
	wr.project = orig
	edited := wr.edited
	wr.edited = map[string]bool{}
	wr.mu.Unlock()
	if err := writeJSON(wr.w.projectFile(), map[string]any{"mcpServers": orig}); err != nil {
		wr.log.done("restoring .mcp.json", err)
	}
	names := []string{rejectOwned}
	for n := range edited {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		wr.approve(ctx, n)
	}
	for _, n := range []string{disableOwned1, disableOwned2} {
		if _, err := wr.w.cli(ctx, nil, "mcp", "enable", n); err != nil {
			wr.log.done("mcp enable "+n+" (restoring)", err)
			continue
		}
		wr.log.done("mcp enable "+n+" (restoring)", wr.checkLocal(ctx, n, func(s listed) error { return want(s.Enabled, "disabled, want enabled") }))
	}
}

// final checks, after mcpdeck exited, that every file holds what the
// run's writes left: the fleet's servers in settings.json, every server
// runnable (approved, enabled), the secrets last stored.
func (wr *writers) final(ctx context.Context) {
	wr.log.done("settings.json at the end", wr.checkUser(""))
	wr.log.done("credentials.json at the end", wr.checkSecrets(""))
	l, err := wr.list(ctx)
	if err != nil {
		wr.log.done("mcp list at the end", err)
		return
	}
	var bad []string
	for _, s := range wr.servers {
		if s.scope != "user" && s.scope != "project" {
			continue // the editor's server lives as long as the editor
		}
		got, ok := l[s.name]
		switch {
		case !ok:
			bad = append(bad, s.name+" missing")
		case !got.Runnable || !got.Enabled:
			bad = append(bad, fmt.Sprintf("%s not runnable (enabled %v, approval %s)", s.name, got.Enabled, got.Approval.Status))
		}
	}
	if len(bad) > 0 {
		wr.log.done("servers at the end", fmt.Errorf("%s", strings.Join(bad, ", ")))
		return
	}
	wr.log.done("servers at the end", nil)
}
