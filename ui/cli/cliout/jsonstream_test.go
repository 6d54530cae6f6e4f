package cliout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// reference is what encodeJSON must write: encoding/json's Encoder output
// passed through textsafe.EscapeJSON.
func reference(t testing.TB, v any, indent string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(textsafe.EscapeJSON(buf.Bytes()))
}

type streamInner struct {
	A string         `json:"a,omitempty"`
	B []int          `json:"b"`
	C map[string]any `json:"c,omitempty"`
	D *int           `json:"d,omitempty"`
	E any            `json:"e"`
	F bool           `json:"f,omitempty"`
	G float64        `json:"g,omitempty"`
	h int
	I string `json:"-"`
	J int    `json:",omitempty"`
	K int64  `json:"k,string"` // an option other than omitempty: marshalled whole
}

// streamOddKeys has names beyond letters, digits, _ - and .: HTML
// characters (which json.Marshal escapes, encoding/json's Encoder with
// SetEscapeHTML(false) does not) and a letter outside ASCII.
type streamOddKeys struct {
	A int `json:"a<&>"`
	B int `json:"bé"`
	C int `json:"d.e-f_g"`
}

// streamListing has the shape of the tools, resources and prompts
// listings under --json: one object per server.
type streamListing struct {
	Server string `json:"server"`
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
	Items  any    `json:"items"`
}

type streamEmbed struct {
	streamInner
	Z int `json:"z"`
}

// TestEncodeJSONMatchesEncodingJSON: the streamed output is byte for byte
// what encoding/json writes, for the shapes --json outputs have.
func TestEncodeJSONMatchesEncodingJSON(t *testing.T) {
	seven := 7
	tools := []engine.Tool{
		{Name: "a\u202eb", ExposedName: "mcp__s__a", Description: strings.Repeat("é<&>\x01", 700), InputSchema: json.RawMessage(`{"type":"object", "properties":{"x":{"type":"string"}}}`), ReadOnly: true},
		{Name: "empty"},
	}
	values := map[string]any{
		"nil":          nil,
		"empty slice":  []string{},
		"nil slice":    []string(nil),
		"bytes":        []byte("hi"),
		"raw":          json.RawMessage(` {"a": [1, 2]} `),
		"time":         time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC),
		"map":          map[string]any{"b": []any{1, "x", nil}, "a": map[string]int{}},
		"struct":       streamInner{h: 1, A: "x", B: []int{1, 2}, C: map[string]any{"k": "v"}, D: &seven, E: []any{map[string]any{}, []any{}}, G: 1.5, J: 3, K: 9},
		"zero struct":  streamInner{},
		"pointer":      &streamInner{E: "y"},
		"embedded":     []streamEmbed{{Z: 1}},
		"empty object": struct{}{},
		"odd keys":     []streamOddKeys{{A: 1, B: 2, C: 3}},
		"omitted all": struct {
			A string `json:"a,omitempty"`
		}{},
		"listing": []streamListing{
			{Server: "s", State: "connected", Items: tools},
			{Server: "t", State: "failed", Error: "boom\x1b[31m", Items: []any{}},
		},
		"nested slices": [][]engine.Tool{{}, tools, nil},
	}
	for name, v := range values {
		for _, indent := range []string{"  ", ""} {
			var got bytes.Buffer
			if err := encodeJSON(&got, v, indent); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := reference(t, v, indent); got.String() != want {
				t.Errorf("%s (indent %q):\n got %s\nwant %s", name, indent, got.String(), want)
			}
		}
	}
}

// TestEncodeJSONLargeOutputIsChunked: a large listing reaches the writer
// in pieces of about jsonChunk, each ending on a whole character.
func TestEncodeJSONLargeOutputIsChunked(t *testing.T) {
	items := make([]engine.Tool, 2000)
	for i := range items {
		items[i] = engine.Tool{Name: "t", Description: strings.Repeat("ü", 500)}
	}
	var w chunkRecorder
	if err := encodeJSON(&w, []streamListing{{Server: "s", Items: items}}, "  "); err != nil {
		t.Fatal(err)
	}
	if len(w.sizes) < 10 {
		t.Fatalf("%d writes for %d bytes: not streamed", len(w.sizes), w.Len())
	}
	for i, n := range w.sizes {
		if n > 2*jsonChunk {
			t.Errorf("write %d is %d bytes", i, n)
		}
	}
	if want := reference(t, []streamListing{{Server: "s", Items: items}}, "  "); w.String() != want {
		t.Error("chunked output differs from encoding/json's")
	}
}

type chunkRecorder struct {
	bytes.Buffer
	sizes []int
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	if !utf8.Valid(p) {
		return 0, fmt.Errorf("write %d cuts a character", len(c.sizes))
	}
	c.sizes = append(c.sizes, len(p))
	return c.Buffer.Write(p)
}
