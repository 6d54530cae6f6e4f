package mcpcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestEnableDisablePersists(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "a", "--", "srv-a")
	e.OK("mcp", "add", "-s", "user", "b", "https://example.com/mcp")
	e.OK("mcp", "disable", "a")
	servers, _ := e.List()
	if servers["a"].Enabled || !servers["b"].Enabled {
		t.Fatalf("after disable a: %+v", servers)
	}
	if !strings.Contains(e.ReadFile(e.ScopeFile("local")), "disabledMcpServers") {
		t.Error("disable was not saved in local settings")
	}
	text := e.OK("mcp", "list", "--no-connect").Stdout
	if !strings.Contains(text, "ENABLED") || !strings.Contains(text, " no ") {
		t.Errorf("text list does not show the disabled state:\n%s", text)
	}
	e.OK("mcp", "disable", "all")
	servers, _ = e.List()
	if servers["a"].Enabled || servers["b"].Enabled {
		t.Fatalf("after disable all: %+v", servers)
	}
	e.OK("mcp", "enable", "b")
	servers, _ = e.List()
	if servers["a"].Enabled || !servers["b"].Enabled {
		t.Fatalf("after enable b: %+v", servers)
	}
	e.OK("mcp", "enable", "all")
	servers, _ = e.List()
	if !servers["a"].Enabled || !servers["b"].Enabled {
		t.Fatalf("after enable all: %+v", servers)
	}
	e.Fails(1, "mcp", "disable", "nope")
	e.Fails(2, "mcp", "enable")
	e.Fails(2, "mcp", "disable", "a", "b")
}

func TestApproveReject(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "-s", "project", "p1", "--", "srv-1")
	e.OK("mcp", "add", "-s", "project", "p2", "https://example.com/mcp")
	e.OK("mcp", "add", "mine", "--", "srv-local")
	status := func() map[string]string {
		servers, _ := e.List()
		m := map[string]string{}
		for n, s := range servers {
			m[n] = s.Approval.Status
		}
		return m
	}
	if s := status(); s["p1"] != "pending" || s["p2"] != "pending" || s["mine"] != "not-needed" {
		t.Fatalf("new project servers: %v", s)
	}
	if out := e.OK("mcp", "list", "--no-connect").Stdout; !strings.Contains(out, "2 project servers await approval") {
		t.Errorf("list gives no approval hint:\n%s", out)
	}
	e.OK("mcp", "approve", "p1")
	if s := status(); s["p1"] != "approved" || s["p2"] != "pending" {
		t.Fatalf("after approve p1: %v", s)
	}
	e.OK("mcp", "reject", "p2")
	if s := status(); s["p2"] != "rejected" {
		t.Fatalf("after reject p2: %v", s)
	}
	if out := e.OK("mcp", "get", "p2").Stdout; !strings.Contains(out, "rejected") {
		t.Errorf("get p2:\n%s", out)
	}
	e.OK("mcp", "approve", "all")
	if s := status(); s["p1"] != "approved" || s["p2"] != "approved" {
		t.Fatalf("after approve all: %v", s)
	}

	// Changing an approved definition asks again.
	e.OK("mcp", "remove", "p1")
	e.OK("mcp", "add", "-s", "project", "p1", "--", "srv-1", "--changed")
	if s := status(); s["p1"] != "changed" {
		t.Fatalf("after editing p1: %v", s)
	}
	if out := e.OK("mcp", "approve", "p1").Stdout; !strings.Contains(out, "changed since") {
		t.Errorf("approving a changed server does not show what changed:\n%s", out)
	}
	e.OK("mcp", "reject", "all")
	if s := status(); s["p1"] != "rejected" || s["p2"] != "rejected" {
		t.Fatalf("after reject all: %v", s)
	}
	r := e.Fails(1, "mcp", "approve", "mine")
	if !strings.Contains(r.Stderr, "needs no approval") {
		t.Errorf("approving a local server: %s", r)
	}
	e.Fails(1, "mcp", "approve", "ghost")
}
