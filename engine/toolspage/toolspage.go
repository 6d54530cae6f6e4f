// Package toolspage reads a tools/list result as it arrives on the wire,
// one tool at a time, before mcp-go decodes it: each tool's input schema
// stays the bytes the server sent (mcp-go keeps only some keywords of a
// schema), and mcp-go gets a slim page of names, so a 26 MB listing is held
// once.
package toolspage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/transports"
)

// Wire is one tool of a tools/list result with the fields the engine
// keeps: the input schema stays the bytes the server sent (mcp-go's struct
// keeps only some keywords of a schema).
type Wire struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema and RawAnnotations are kept as sent for the tool's pin
	// (model/pins), which covers them whole.
	OutputSchema   json.RawMessage `json:"outputSchema"`
	RawAnnotations json.RawMessage `json:"annotations"`
	// Annotations are the hints the engine shows, read from RawAnnotations.
	Annotations struct {
		Title           string `json:"title"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint"`
		OpenWorldHint   *bool  `json:"openWorldHint"`
	} `json:"-"`
}

// errToolsPage says a tools/list result is not the shape the stream reader
// knows; the caller then lets mcp-go decode it as it is, and its error.
var errToolsPage = errors.New("unexpected tools/list result")

// Read reads a raw tools/list result one tool at a time, handing
// each to keep, and returns the slim page mcp-go decodes in its place: each
// tool's name and, only where it declares x-mcp-header parameters, its input
// schema, which mcp-go needs to check those declarations and to mirror the
// parameters into headers on calls. So a 26 MB listing is held once, as
// what keep makes of it, instead of also as mcp-go's decoded tools, which
// its client keeps for the connection's life. keep sees the tools in order;
// mcp-go may still drop some from its page (an invalid x-mcp-header
// declaration), which is why it gets every name.
func Read(raw json.RawMessage, keep func(*Wire)) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var slim bytes.Buffer
	slim.WriteString(`{"tools":[`)
	var cursor string
	seenTools := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "tools":
			if seenTools {
				return nil, fmt.Errorf("%w: tools given twice", errToolsPage)
			}
			seenTools = true
			if err := readTools(dec, &slim, keep); err != nil {
				return nil, err
			}
		case "nextCursor":
			if err := dec.Decode(&cursor); err != nil {
				return nil, fmt.Errorf("%w: nextCursor: %w", errToolsPage, err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: more after the result", errToolsPage)
	}
	slim.WriteString(`]`)
	if cursor != "" {
		c, _ := json.Marshal(cursor)
		slim.WriteString(`,"nextCursor":`)
		slim.Write(c)
	}
	slim.WriteString(`}`)
	return slim.Bytes(), nil
}

// Take returns a context under which every tools/list result is
// read by Read before mcp-go decodes it: reset runs first (a
// retried request reads again), each tool goes to keep, and mcp-go gets
// the slim page. A result the reader refuses is reset again and left to
// mcp-go whole, which says what is wrong with it; read reports whether the
// last result was read. Both run on the goroutine that makes the request.
func Take(ctx context.Context, reset func(), keep func(*Wire)) (tctx context.Context, read func() bool) {
	ok := false
	tctx = transports.TakeResult(ctx, string(mcp.MethodToolsList), func(raw json.RawMessage) json.RawMessage {
		reset()
		slim, err := Read(raw, keep)
		if ok = err == nil; !ok {
			reset()
			return raw
		}
		return slim
	})
	return tctx, func() bool { return ok }
}

// readTools reads the tools array, appending each tool's slim form to slim.
func readTools(dec *json.Decoder, slim *bytes.Buffer, keep func(*Wire)) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for n := 0; dec.More(); n++ {
		var t Wire
		if err := dec.Decode(&t); err != nil {
			return fmt.Errorf("%w: tool %d: %w", errToolsPage, n, err)
		}
		if a := bytes.TrimSpace(t.RawAnnotations); len(a) > 0 && string(a) != "null" {
			if err := json.Unmarshal(a, &t.Annotations); err != nil {
				return fmt.Errorf("%w: tool %d: annotations: %w", errToolsPage, n, err)
			}
		}
		if s := bytes.TrimSpace(t.InputSchema); len(s) > 0 && s[0] != '{' {
			return fmt.Errorf("%w: tool %d: inputSchema is not an object", errToolsPage, n)
		}
		if n > 0 {
			slim.WriteByte(',')
		}
		name, _ := json.Marshal(t.Name)
		slim.WriteString(`{"name":`)
		slim.Write(name)
		if bytes.Contains(t.InputSchema, []byte(`x-mcp-header`)) {
			slim.WriteString(`,"inputSchema":`)
			slim.Write(t.InputSchema)
		}
		slim.WriteByte('}')
		keep(&t)
	}
	return expectDelim(dec, ']')
}

// expectDelim reads one token and checks it is the delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: %w", errToolsPage, err)
	}
	if tok != d {
		return fmt.Errorf("%w: %v where %v was expected", errToolsPage, tok, d)
	}
	return nil
}

// FromMCP is a tool as mcp-go decoded it (a page Read refused), in Read's
// form: its raw input schema, else mcp-go's decoded one encoded again.
func FromMCP(t mcp.Tool) Wire {
	w := Wire{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.RawInputSchema}
	if len(w.InputSchema) == 0 {
		w.InputSchema, _ = json.Marshal(t.InputSchema)
	}
	w.OutputSchema = t.RawOutputSchema
	if len(w.OutputSchema) == 0 && t.OutputSchema.Type != "" {
		w.OutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	w.RawAnnotations, _ = json.Marshal(t.Annotations)
	w.Annotations.Title = t.Annotations.Title
	w.Annotations.ReadOnlyHint = t.Annotations.ReadOnlyHint
	w.Annotations.DestructiveHint = t.Annotations.DestructiveHint
	w.Annotations.OpenWorldHint = t.Annotations.OpenWorldHint
	return w
}
