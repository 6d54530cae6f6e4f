package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
)

// notifyParts takes what servers send unasked: list changes (for lists),
// progress (for the running call), log messages (for logs) and resource
// updates (for subscriptions). It owns the progress callbacks of calls
// under way.
type notifyParts struct {
	e *Engine
	// Guarded by e.mu:
	progress map[string]func(Progress) // progress token → callback
	tokens   uint64
}

// on handles a server's notification: list changes refetch only that
// list, progress goes to the running call.
func (p *notifyParts) on(server string, n mcp.JSONRPCNotification) {
	e := p.e
	switch n.Method {
	case string(mcp.MethodNotificationToolsListChanged):
		e.lists.refetch(server, listTools)
	case string(mcp.MethodNotificationResourcesListChanged):
		e.lists.refetch(server, listResources)
		e.lists.refetch(server, listTemplates)
	case string(mcp.MethodNotificationPromptsListChanged):
		e.lists.refetch(server, listPrompts)
	case string(mcp.MethodNotificationProgress):
		p.onProgress(n)
	case string(mcp.MethodNotificationMessage):
		e.logs.onMessage(server, n)
	case string(mcp.MethodNotificationResourceUpdated):
		uri, _ := n.Params.AdditionalFields["uri"].(string)
		e.subs.onUpdated(server, uri)
	}
}

// addProgressLocked registers a call's progress callback and returns the
// token the call sends. Callers hold e.mu.
func (p *notifyParts) addProgressLocked(cb func(Progress)) string {
	p.tokens++
	tok := "mcpdeck-" + strconv.FormatUint(p.tokens, 10)
	p.progress[tok] = cb
	return tok
}

// dropProgress forgets a finished call's progress callback.
func (p *notifyParts) dropProgress(tok string) {
	p.e.locked(func() { delete(p.progress, tok) })
}

// onProgress forwards a progress notification to its call's callback.
func (p *notifyParts) onProgress(n mcp.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	tok := fmt.Sprint(f["progressToken"])
	var cb func(Progress)
	p.e.locked(func() { cb = p.progress[tok] })
	if cb == nil {
		return
	}
	pr := Progress{}
	pr.Progress = number(f["progress"])
	pr.Total = number(f["total"])
	if m, ok := f["message"].(string); ok {
		pr.Message = capText(m)
	}
	cb(pr)
}

// number reads a JSON number that may arrive decoded (float64, json.Number)
// or, from in-process servers that skip the JSON round trip, as a Go integer.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case float32:
		return float64(n)
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case int32:
		return float64(n)
	case uint64:
		return float64(n)
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}
