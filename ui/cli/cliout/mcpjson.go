package cliout

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
)

// ExtrasKey is the member of a result's --json output that holds what
// mcpdeck adds to the server's result, apart from MCP's own fields.
const ExtrasKey = "_mcpdeck"

// savedFile is one file mcpdeck wrote an item's data to: item is the JSON
// Pointer of the item in the same output ("/content/1").
type savedFile struct {
	Item string `json:"item"`
	Path string `json:"path"`
}

// resultExtras is the ExtrasKey member.
type resultExtras struct {
	Files []savedFile `json:"files"`
}

// MCPResult is a processed result (engine.ToolResult, ResourceResult or
// PromptResult) as call, read, prompt and batch print it with --json: the
// result as the server sent it, MCP's objects unchanged (content items
// with type, text, data, mimeType, resource…; prompt messages with role
// and content), and under ExtrasKey the files mcpdeck saved data to, each
// with the JSON Pointer of its item. Nothing is added inside MCP's
// objects, so a program reads them as any MCP client would.
func MCPResult(res any) (json.RawMessage, error) {
	var sent any
	var files []savedFile
	saved := func(cs []engine.Content, at string) {
		for i, c := range cs {
			if c.Path != "" {
				files = append(files, savedFile{Item: fmt.Sprintf(at, i), Path: c.Path})
			}
		}
	}
	switch r := res.(type) {
	case engine.ToolResult:
		sent = r.Sent
		saved(r.Content, "/content/%d")
	case engine.ResourceResult:
		sent = r.Sent
		saved(r.Contents, "/contents/%d")
	case engine.PromptResult:
		sent = r.Sent
		saved(r.Messages, "/messages/%d/content")
	default:
		return nil, fmt.Errorf("no MCP form for a %T", res)
	}
	out, err := reencode(sent)
	if err != nil || len(files) == 0 {
		return out, err
	}
	extras, err := json.Marshal(resultExtras{Files: files})
	if err != nil {
		return nil, err
	}
	body := strings.TrimSpace(string(out))
	if !strings.HasSuffix(body, "}") {
		return nil, fmt.Errorf("the result is not a JSON object: %.20s", body)
	}
	sep := ","
	if body == "{}" {
		sep = ""
	}
	return json.RawMessage(body[:len(body)-1] + sep + `"` + ExtrasKey + `":` + string(extras) + "}"), nil
}

// reencode marshals v as encoding/json does, but with "<", ">" and "&"
// as themselves: mcp-go's own MarshalJSON methods write them as \u003c,
// \u003e and \u0026, and a tool's "a < b" should read as it was sent.
// Member order and numbers stay as marshalled.
func reencode(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if r, ok := htmlEscaped(b[i+1 : min(i+6, len(b))]); ok {
			out = append(out, r)
			i += 5
			continue
		}
		out = append(out, b[i], b[i+1]) // any other escape, "\\" included, as it is
		i++
	}
	return out, nil
}

// htmlEscaped is the character encoding/json's HTML escape e (after its
// backslash) stands for.
func htmlEscaped(e []byte) (byte, bool) {
	switch string(e) {
	case "u003c":
		return '<', true
	case "u003e":
		return '>', true
	case "u0026":
		return '&', true
	}
	return 0, false
}
