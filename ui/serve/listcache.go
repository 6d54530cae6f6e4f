package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxPlainList bounds a list request the cache answers: a plain one is a
// few dozen bytes, and anything longer (a tools/call with its arguments)
// is not looked into at all.
const maxPlainList = 512

// listCache holds the encoded result of each list request (tools,
// prompts, resources, resource templates) for one generation of what the
// gateway offers. mcp-go sorts and encodes every definition on every list
// request (about 3 ms of CPU for 300 tools); an agent lists far more often
// than what is offered changes, so the result is encoded once per change
// and each request only writes the bytes out.
type listCache struct {
	mu sync.Mutex
	// gen counts the changes of what is offered (hold bumps it).
	gen uint64
	// held is non-zero while apply sets changed lists on mcp-go: mcp-go
	// then answers, from the lists as they are set.
	held    int
	results map[mcp.MCPMethod][]byte // method → its encoded result, for gen
}

// errHeld is the cache asked while the lists are being set.
var errHeld = errors.New("the offered lists are being set")

// hold drops the encoded results and answers nothing until release:
// what is offered is changing.
func (c *listCache) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.held++
	c.results = nil
}

// release lets results be encoded again, from the lists now set.
func (c *listCache) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held--
	c.results = nil
}

// result is method's encoded result, encoded by build on first use in
// this generation. Building holds the lock, so hold waits for it: no
// result of the lists before a change outlives the change.
func (c *listCache) result(method mcp.MCPMethod, build func(mcp.MCPMethod) ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held > 0 {
		return nil, errHeld
	}
	if b, ok := c.results[method]; ok {
		return b, nil
	}
	b, err := build(method)
	if err != nil {
		return nil, err
	}
	if c.results == nil {
		c.results = map[mcp.MCPMethod][]byte{}
	}
	c.results[method] = b
	return b, nil
}

// cachedMethod reports whether the cache answers method.
func cachedMethod(m mcp.MCPMethod) bool {
	return m == mcp.MethodToolsList || m == mcp.MethodPromptsList || m == mcp.MethodResourcesList || m == mcp.MethodResourcesTemplatesList
}

// encodeList asks mcp-go for method's result once and encodes it: the
// cache then answers exactly as mcp-go would (its order, its empty
// lists). It is called only once first answers are given (listed), so
// mcp-go's hook does not wait.
func (g *Gateway) encodeList(method mcp.MCPMethod) ([]byte, error) {
	req := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":0,"method":%q}`, method)
	resp, ok := g.srv.HandleMessage(context.Background(), req).(mcp.JSONRPCResponse)
	if !ok {
		return nil, fmt.Errorf("listing %s for the cache: %w", method, errNoListResult)
	}
	return json.Marshal(resp.Result)
}

// errNoListResult is mcp-go answering a list request with an error: the
// request then goes to mcp-go itself, which says what is wrong.
var errNoListResult = errors.New("mcp-go returned no result")

// plainList returns the id and method of msg when it is a list request
// the cache answers: one JSON-RPC request for a list, with no params or
// empty params. A cursor or _meta (a progress token, or protocol
// 2026-07-28, whose results mcp-go stamps per request) sends it to mcp-go.
func plainList(msg []byte) (json.RawMessage, mcp.MCPMethod, bool) {
	if len(msg) > maxPlainList || !bytes.Contains(msg, []byte("/list")) {
		return nil, "", false
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  mcp.MCPMethod   `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil || m.JSONRPC != mcp.JSONRPC_VERSION || !cachedMethod(m.Method) || !plainID(m.ID) {
		return nil, "", false
	}
	if p := bytes.TrimSpace(m.Params); len(p) > 0 && !bytes.Equal(p, []byte("null")) {
		var fields map[string]json.RawMessage
		if json.Unmarshal(p, &fields) != nil || len(fields) > 0 {
			return nil, "", false
		}
	}
	return m.ID, m.Method, true
}

// plainID reports whether id is a JSON-RPC request id: a string or a
// number (not null, absent, an object or an array).
func plainID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	c := id[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

// listed reports whether list requests are answered now (startup.go);
// before that mcp-go's hook holds them.
func (g *Gateway) listed() bool { return g.start.isReady() }

// cachedList returns msg's id and the cached result that answers it, when
// msg is a plain list request and lists are answered now; otherwise msg
// is left to mcp-go (not a plain list request, first answers still held,
// or no result).
func (g *Gateway) cachedList(msg []byte) (json.RawMessage, []byte, bool) {
	id, method, ok := plainList(msg)
	if !ok || !g.listed() {
		return nil, nil, false
	}
	res, err := g.lists.result(method, g.encodeList)
	if err != nil {
		return nil, nil, false
	}
	return id, res, true
}

// writeReply writes the JSON-RPC response of id with the encoded result
// res, and a newline.
func writeReply(w io.Writer, id json.RawMessage, res []byte) {
	head := make([]byte, 0, 48+len(id))
	head = append(head, `{"jsonrpc":"2.0","id":`...)
	head = append(head, id...)
	head = append(head, `,"result":`...)
	_, _ = w.Write(head)
	_, _ = w.Write(res)
	_, _ = w.Write([]byte("}\n"))
}
