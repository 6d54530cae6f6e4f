package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
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
	if tool.Approval.Status != model.ApprovalPending || tool.Runnable() {
		t.Fatalf("new project server: %v runnable=%v", tool.Approval.Status, tool.Runnable())
	}
	if p := mustServer(t, r, "personal"); p.Approval.Status != model.ApprovalNotNeeded || !p.Runnable() {
		t.Errorf("user server must not need approval: %v", p.Approval.Status)
	}

	if err := SetApproval(opts, "repo-tool", true, "not-the-hash"); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("approving a stale hash: %v, want ErrInvalid", err)
	}
	if err := SetApproval(opts, "repo-tool", true, tool.Hash); err != nil {
		t.Fatal(err)
	}
	tool = mustServer(t, f.load(), "repo-tool")
	if tool.Approval.Status != model.ApprovalApproved || tool.Approval.ApprovedHash != tool.Hash || !tool.Runnable() {
		t.Fatalf("after approval: %+v", tool.Approval)
	}

	// The repository changes the definition: ask again, with a diff.
	f.write(f.projectFile(), servers(
		"repo-tool", `{"command":"npx","args":["-y","evil-tool"]}`,
		"my.server", `{"command":"x"}`,
	))
	tool = mustServer(t, f.load(), "repo-tool")
	if tool.Approval.Status != model.ApprovalChanged || tool.Runnable() {
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
	if tool = mustServer(t, f.load(), "repo-tool"); tool.Approval.Status != model.ApprovalApproved {
		t.Fatalf("re-approved: %+v", tool.Approval)
	}

	// Reject, by a differently spelled name (names compare normalized).
	if err := SetApproval(opts, "my_server", false, ""); err != nil {
		t.Fatal(err)
	}
	if s := mustServer(t, f.load(), "my.server"); s.Approval.Status != model.ApprovalRejected || s.Runnable() {
		t.Errorf("rejected: %+v", s.Approval)
	}

	if err := SetApproval(opts, "personal", true, ""); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("approving a user server: %v, want ErrInvalid", err)
	}
	if err := SetApproval(opts, "ghost", true, ""); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("approving an unknown server: %v, want ErrNotFound", err)
	}

	// Approve all flips the rejection too.
	if err := SetApproval(opts, "all", true, ""); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.load().Servers {
		if s.Scope == model.ScopeProject && s.Approval.Status != model.ApprovalApproved {
			t.Errorf("%s after approve all: %v", s.Name, s.Approval.Status)
		}
	}
}

func TestApprovedHashFormsInLocalSettings(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("a", `{"command":"x"}`, "b", `{"command":"y"}`, "c", `{"command":"z"}`))
	hashA := model.ConfigHash(model.ServerConfig{Command: "x"})
	f.write(f.localFile(), `{"approvedMcpjsonServers": {"a": "`+hashA+`", "b": "stale", "c": 7}}`)
	r := f.load()
	if s := mustServer(t, r, "a"); s.Approval.Status != model.ApprovalApproved {
		t.Errorf("a (bare hash that matches): %v", s.Approval.Status)
	}
	if s := mustServer(t, r, "b"); s.Approval.Status != model.ApprovalChanged || !strings.Contains(s.Approval.Diff, `+   "command": "y"`) {
		t.Errorf("b (bare hash that differs): %+v", s.Approval)
	}
	if s := mustServer(t, r, "c"); s.Approval.Status != model.ApprovalPending || len(r.Problems) != 1 || r.Problems[0].Field != "approvedMcpjsonServers.c" {
		t.Errorf("c (wrong type): %v, problems %v", s.Approval.Status, r.Problems)
	}
}

func TestEnableAllProjectServersFromFile(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("a", `{"command":"x"}`, "b", `{"command":"y"}`))
	f.write(f.localFile(), `{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["b"]}`)
	r := f.load()
	if a, b := mustServer(t, r, "a"), mustServer(t, r, "b"); a.Approval.Status != model.ApprovalApproved || b.Approval.Status != model.ApprovalRejected {
		t.Errorf("a=%v b=%v", a.Approval.Status, b.Approval.Status)
	}
	f.write(f.localFile(), `{"enableAllProjectMcpServers": "yes", "enabledMcpjsonServers": [1]}`)
	r = f.load()
	if len(r.Problems) != 2 || mustServer(t, r, "a").Approval.Status != model.ApprovalPending {
		t.Errorf("bad settings types must be reported and fail safe: %v", r.Problems)
	}
}
