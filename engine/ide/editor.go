package ide

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// ServerName is the name of the first editor's server; more editors get
// ServerName-2, ServerName-3...
const ServerName = "ide"

// Contains reports whether project lies in folder (or is it). Both must
// already be absolute, cleaned and with symlinks resolved (the engine
// does that): containment is by whole path elements, so /a/b holds
// /a/b/c but not /a/bc.
func Contains(folder, project string) bool {
	if !filepath.IsAbs(folder) || !filepath.IsAbs(project) {
		return false
	}
	folder, project = filepath.Clean(folder), filepath.Clean(project)
	if folder == project {
		return true
	}
	if !strings.HasSuffix(folder, string(filepath.Separator)) {
		folder += string(filepath.Separator)
	}
	return strings.HasPrefix(project, folder)
}

// Editor is one live editor that has the project open: its lock file and
// the workspace folder (resolved) that holds the project.
type Editor struct {
	Lock   Lock
	Folder string
}

// key identifies the editor across restarts: the same editor on the same
// folder, whatever its new port, pid and token.
func (e Editor) key() string { return e.Lock.Name + "\x00" + e.Folder }

// Server is the dynamic server the editor becomes under name: its
// transport to 127.0.0.1 on the lock file's port, the token (where the
// transport sends one) as the header the row names, which puts it in the
// server's secret set (model.Server.Secrets) with every header value.
func (e Editor) Server(name string) model.Server {
	ti := e.Lock.Transport
	url := ti.Schemes[0] + "://127.0.0.1:" + strconv.Itoa(e.Lock.Port)
	if ti.TokenHeader == "" {
		url += "/sse" // the SSE endpoint of an editor that speaks SSE
	}
	cfg := model.ServerConfig{Type: ti.Name, URL: url}
	if ti.TokenHeader != "" {
		cfg.Headers = map[string]string{ti.TokenHeader: e.Lock.Token}
	}
	ed := model.Editor{Name: e.Lock.Name, PID: e.Lock.PID, Folder: e.Folder}
	return model.Server{
		Name: name, Scope: model.ScopeDynamic, Source: ed.From(), Raw: cfg, Config: cfg,
		Hash: model.ConfigHash(cfg), Approval: model.Approval{Status: model.ApprovalNotNeeded},
		Policy: model.PolicyDecision{Allowed: true}, Enabled: true, Editor: &ed,
	}
}

// Names keeps the name of each editor's server while the editor lives:
// an editor that restarts (new port, pid and token on the same folder)
// keeps its name, so its row reconnects instead of moving. The zero value
// is ready.
type Names struct {
	byKey map[string]string
}

// Assign names eds, returned by name, and forgets the editors that are
// gone. Editors already named keep their names; new ones take the lowest
// free of ide, ide-2, ide-3... in the order of editor name, folder and
// port, skipping the names configured reports (a server a file defines
// wins its name). Two live editors with the same key (two windows of one
// editor on one folder) are told apart by port.
func (n *Names) Assign(eds []Editor, configured func(name string) bool) map[string]Editor {
	slices.SortFunc(eds, func(a, b Editor) int {
		return strings.Compare(fmt.Sprintf("%s\x00%05d", a.key(), a.Lock.Port), fmt.Sprintf("%s\x00%05d", b.key(), b.Lock.Port))
	})
	keys := make([]string, len(eds))
	for i, e := range eds {
		keys[i] = e.key()
		if i > 0 && eds[i-1].key() == e.key() {
			keys[i] = keys[i-1] + "\x00+" // the next window of the same editor on the same folder
		}
	}
	next := map[string]string{}
	taken := map[string]bool{}
	for _, k := range keys {
		if name, ok := n.byKey[k]; ok && !configured(name) {
			next[k] = name
			taken[name] = true
		}
	}
	out := make(map[string]Editor, len(eds))
	for i, k := range keys {
		name, ok := next[k]
		for j := 1; !ok; j++ {
			name = ServerName
			if j > 1 {
				name += "-" + strconv.Itoa(j)
			}
			if !taken[name] && !configured(name) {
				ok, taken[name], next[k] = true, true, name
			}
		}
		out[name] = eds[i]
	}
	n.byKey = next
	return out
}
