package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// agentRoot is the root the test agents list.
const agentRoot = "file:///agent/root"

// agentRoots is an agent's roots handler listing agentRoot.
type agentRoots struct{}

func (agentRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: agentRoot, Name: "agent"}}}, nil
}

// TestServerSeesTheAgentsRoots: a server's roots/list during an agent's
// call is answered with the agent's roots when the agent declared it can
// list them (an agent on 2026-07-28 through input-required, one on
// 2025-11-25 by a request on its session), and with mcpdeck's answer, the
// project's root, when it did not.
func TestServerSeesTheAgentsRoots(t *testing.T) {
	modern := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	asked := make(chan mcp.CreateMessageParams, 4)
	f := newFormAnswers(false)
	lister := modern.modernAgent(client.WithRootsHandler(agentRoots{}), client.WithElicitationHandler(f), agentModel(asked))
	if got, isErr := lister.call(t, "fa__ask_three", nil); isErr || !strings.Contains(got, "client_roots="+agentRoot) {
		t.Errorf("an agent on 2026-07-28 that lists roots: fa__ask_three = %q (error %v), want its root %s", got, isErr, agentRoot)
	}
	project := "client_roots=" + platform.FileURI(modern.load.Cwd)
	if got, isErr := modern.modernAgent(client.WithElicitationHandler(f), agentModel(asked)).call(t, "fa__ask_three", nil); isErr || !strings.Contains(got, project) {
		t.Errorf("an agent on 2026-07-28 that lists no roots: fa__ask_three = %q (error %v), want %s", got, isErr, project)
	}
	modern.waitSettled()

	legacy := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	if got, isErr := legacy.stdioAgent(client.WithRootsHandler(agentRoots{})).call(t, "fa__roots", nil); isErr || !strings.Contains(got, agentRoot) {
		t.Errorf("an agent on 2025-11-25 over stdio that lists roots: fa__roots = %q (error %v), want its root %s", got, isErr, agentRoot)
	}
	// mcp-go's HTTP session would send roots/list on a stream the agent
	// need not open (askagent.go): over HTTP the project's root answers.
	for name, a := range map[string]*agent{
		"over HTTP that lists roots":    legacy.httpAgent(client.WithRootsHandler(agentRoots{})),
		"over HTTP that lists no roots": legacy.httpAgent(),
	} {
		if got, isErr := a.call(t, "fa__roots", nil); isErr || !strings.Contains(got, platform.FileURI(legacy.load.Cwd)) {
			t.Errorf("an agent on 2025-11-25 %s: fa__roots = %q (error %v), want the project's root", name, got, isErr)
		}
	}
	legacy.waitSettled()
}
