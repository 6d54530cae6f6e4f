package model

import (
	"errors"
	"strings"
	"testing"
)

func TestApprovalLifecycle(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers(
		"repo-tool", `{"command":"npx","args":["-y","safe-tool"]}`,
		"my.server", `{"command":"x"}`,
	))
	f.write(f.userFile(), servers("personal", `{"command":"p"}`))
	opts := f.opts()

	r := f.load()
	tool := mustServer(t, r, "repo-tool")
	if tool.Approval.Status != ApprovalPending || tool.Runnable() {
		t.Fatalf("new project server: %v runnable=%v", tool.Approval.Status, tool.Runnable())
	}
	if p := mustServer(t, r, "personal"); p.Approval.Status != ApprovalNotNeeded || !p.Runnable() {
		t.Errorf("user server must not need approval: %v", p.Approval.Status)
	}

	if err := SetApproval(opts, "repo-tool", true, "not-the-hash"); !errors.Is(err, ErrInvalid) {
		t.Errorf("approving a stale hash: %v, want ErrInvalid", err)
	}
	if err := SetApproval(opts, "repo-tool", true, tool.Hash); err != nil {
		t.Fatal(err)
	}
	tool = mustServer(t, f.load(), "repo-tool")
	if tool.Approval.Status != ApprovalApproved || tool.Approval.ApprovedHash != tool.Hash || !tool.Runnable() {
		t.Fatalf("after approval: %+v", tool.Approval)
	}

	// The repository changes the definition: ask again, with a diff.
	f.write(f.projectFile(), servers(
		"repo-tool", `{"command":"npx","args":["-y","evil-tool"]}`,
		"my.server", `{"command":"x"}`,
	))
	tool = mustServer(t, f.load(), "repo-tool")
	if tool.Approval.Status != ApprovalChanged || tool.Runnable() {
		t.Fatalf("changed definition: %+v", tool.Approval)
	}
	for _, want := range []string{`-     "safe-tool"`, `+     "evil-tool"`} {
		if !strings.Contains(tool.Approval.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, tool.Approval.Diff)
		}
	}
	if err := SetApproval(opts, "repo-tool", true, ""); err != nil { // "" = the current definition
		t.Fatal(err)
	}
	if tool = mustServer(t, f.load(), "repo-tool"); tool.Approval.Status != ApprovalApproved {
		t.Fatalf("re-approved: %+v", tool.Approval)
	}

	// Reject, by a differently spelled name (names compare normalized).
	if err := SetApproval(opts, "my_server", false, ""); err != nil {
		t.Fatal(err)
	}
	if s := mustServer(t, f.load(), "my.server"); s.Approval.Status != ApprovalRejected || s.Runnable() {
		t.Errorf("rejected: %+v", s.Approval)
	}

	if err := SetApproval(opts, "personal", true, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("approving a user server: %v, want ErrInvalid", err)
	}
	if err := SetApproval(opts, "ghost", true, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("approving an unknown server: %v, want ErrNotFound", err)
	}

	// Approve all flips the rejection too.
	if err := SetApproval(opts, "all", true, ""); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.load().Servers {
		if s.Scope == ScopeProject && s.Approval.Status != ApprovalApproved {
			t.Errorf("%s after approve all: %v", s.Name, s.Approval.Status)
		}
	}
}

func TestDecideApproval(t *testing.T) {
	cfg := ServerConfig{Command: "x"}
	h := ConfigHash(cfg)
	old := ServerConfig{Command: "old"}
	for _, tc := range []struct {
		name string
		st   localState
		want ApprovalStatus
	}{
		{"nothing", localState{}, ApprovalPending},
		{"enabled by name only", localState{enabledMcpjson: []string{"srv"}}, ApprovalApproved},
		{"normalized name", localState{enabledMcpjson: []string{"s.r.v"}}, ApprovalPending},
		{"enable all", localState{enableAll: true}, ApprovalApproved},
		{"rejected beats enable all", localState{enableAll: true, disabledMcpjson: []string{"srv"}}, ApprovalRejected},
		{"rejected beats enabled", localState{enabledMcpjson: []string{"srv"}, disabledMcpjson: []string{"srv"}}, ApprovalRejected},
		{"hash matches", localState{approved: map[string]approvedEntry{"srv": {Hash: h, Config: cfg}}}, ApprovalApproved},
		{"hash differs", localState{enabledMcpjson: []string{"srv"}, approved: map[string]approvedEntry{"srv": {Hash: ConfigHash(old), Config: old}}}, ApprovalChanged},
		{"hash differs but enable all", localState{enableAll: true, approved: map[string]approvedEntry{"srv": {Hash: "x"}}}, ApprovalApproved},
	} {
		if got := tc.st.approval("srv", cfg, h); got.Status != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got.Status, tc.want)
		}
	}
	// "my.server" in settings approves the server named "my_server".
	if got := (localState{enabledMcpjson: []string{"my.server"}}).approval("my_server", cfg, h); got.Status != ApprovalApproved {
		t.Errorf("normalized compare: %v", got.Status)
	}
}

func TestApprovedHashFormsInLocalSettings(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("a", `{"command":"x"}`, "b", `{"command":"y"}`, "c", `{"command":"z"}`))
	hashA := ConfigHash(ServerConfig{Command: "x"})
	f.write(f.localFile(), `{"approvedMcpjsonServers": {"a": "`+hashA+`", "b": "stale", "c": 7}}`)
	r := f.load()
	if s := mustServer(t, r, "a"); s.Approval.Status != ApprovalApproved {
		t.Errorf("a (bare hash that matches): %v", s.Approval.Status)
	}
	if s := mustServer(t, r, "b"); s.Approval.Status != ApprovalChanged || !strings.Contains(s.Approval.Diff, `+   "command": "y"`) {
		t.Errorf("b (bare hash that differs): %+v", s.Approval)
	}
	if s := mustServer(t, r, "c"); s.Approval.Status != ApprovalPending || len(r.Problems) != 1 || r.Problems[0].Field != "approvedMcpjsonServers.c" {
		t.Errorf("c (wrong type): %v, problems %v", s.Approval.Status, r.Problems)
	}
}

func TestEnableAllProjectServersFromFile(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("a", `{"command":"x"}`, "b", `{"command":"y"}`))
	f.write(f.localFile(), `{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["b"]}`)
	r := f.load()
	if a, b := mustServer(t, r, "a"), mustServer(t, r, "b"); a.Approval.Status != ApprovalApproved || b.Approval.Status != ApprovalRejected {
		t.Errorf("a=%v b=%v", a.Approval.Status, b.Approval.Status)
	}
	f.write(f.localFile(), `{"enableAllProjectMcpServers": "yes", "enabledMcpjsonServers": [1]}`)
	r = f.load()
	if len(r.Problems) != 2 || mustServer(t, r, "a").Approval.Status != ApprovalPending {
		t.Errorf("bad settings types must be reported and fail safe: %v", r.Problems)
	}
}
