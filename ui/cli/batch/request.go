package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
)

// Kinds of batch request, named by the key that holds the target.
const (
	batchTool   = "tool"
	batchRead   = "read"
	batchPrompt = "prompt"
)

// batchRequest is one parsed line of `mcpdeck batch` input.
type batchRequest struct {
	kind string         // batchTool, batchRead or batchPrompt
	name string         // the tool or prompt name, or the resource URI
	args map[string]any // tool or prompt arguments (nil for read)
}

// batchLineJSON is the wire form of a line; pointers tell a missing key
// from an empty value.
type batchLineJSON struct {
	Tool      *string         `json:"tool"`
	Read      *string         `json:"read"`
	Prompt    *string         `json:"prompt"`
	Arguments json.RawMessage `json:"arguments"`
}

// isBatchSkipped reports whether a line is blank or a # comment, which
// batch skips (the line still counts for numbering).
func isBatchSkipped(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// parseBatchLine parses one request: a JSON object with exactly one of
// "tool", "read" or "prompt", and "arguments" (an object) for tools and
// prompts. Unknown keys are refused so a misspelt key is not ignored.
func parseBatchLine(line string) (batchRequest, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	var w batchLineJSON
	if err := dec.Decode(&w); err != nil {
		return batchRequest{}, fmt.Errorf("not a request object: %w", err)
	}
	if dec.More() {
		return batchRequest{}, errors.New("unexpected data after the JSON object")
	}
	var req batchRequest
	n := 0
	for _, k := range []struct {
		kind string
		v    *string
	}{{batchTool, w.Tool}, {batchRead, w.Read}, {batchPrompt, w.Prompt}} {
		if k.v != nil {
			n++
			req.kind, req.name = k.kind, *k.v
		}
	}
	switch {
	case n == 0:
		return batchRequest{}, errors.New(`want one of "tool", "read" or "prompt"`)
	case n > 1:
		return batchRequest{}, errors.New(`give only one of "tool", "read" or "prompt" per line`)
	case req.name == "":
		return batchRequest{}, fmt.Errorf("%q is empty", req.kind)
	}
	raw := bytes.TrimSpace(w.Arguments)
	if req.kind == batchRead {
		if len(raw) > 0 {
			return batchRequest{}, errors.New(`"read" takes no "arguments"`)
		}
		return req, nil
	}
	if len(raw) == 0 {
		req.args = map[string]any{}
		return req, nil
	}
	if err := cliargs.DecodeObject(string(raw), &req.args); err != nil {
		return batchRequest{}, fmt.Errorf(`"arguments" must be a JSON object: %w`, err)
	}
	return req, nil
}
