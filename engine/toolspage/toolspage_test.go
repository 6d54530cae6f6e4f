package toolspage

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

const headerSchema = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`

func isTrue(b *bool) bool { return b != nil && *b }

// TestReadToolsPageKeepsEveryToolAndSlimsTheRest: keep sees each tool whole
// (description, schema byte for byte, annotations), in order; mcp-go's slim
// page has every name, the schema only where it declares x-mcp-header, and
// the cursor.
func TestReadToolsPageKeepsEveryToolAndSlimsTheRest(t *testing.T) {
	raw := `{"_meta":{"x":1},"tools":[
	  {"name":"a","title":"A","description":"first","inputSchema":{"type": "object", "b":1.0},"annotations":{"readOnlyHint":true},"outputSchema":{"type":"object"}},
	  {"name":"h","description":"` + string(bytes.Repeat([]byte("d"), 3000)) + `","inputSchema":` + headerSchema + `},
	  {"name":"a","annotations":{"title":"Again","destructiveHint":true}}
	],"nextCursor":"c2"}`
	var kept []Wire
	slim, err := Read(json.RawMessage(raw), func(w *Wire) { kept = append(kept, *w) })
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 3 || kept[0].Name != "a" || kept[1].Name != "h" || kept[2].Name != "a" {
		t.Fatalf("kept %+v", kept)
	}
	if string(kept[0].InputSchema) != `{"type": "object", "b":1.0}` || kept[0].Title != "A" || !isTrue(kept[0].Annotations.ReadOnlyHint) {
		t.Errorf("first tool %+v", kept[0])
	}
	if len(kept[1].Description) != 3000 || kept[2].Annotations.Title != "Again" || !isTrue(kept[2].Annotations.DestructiveHint) {
		t.Errorf("tools %+v", kept[1:])
	}
	want := `{"tools":[{"name":"a"},{"name":"h","inputSchema":` + headerSchema + `},{"name":"a"}],"nextCursor":"c2"}`
	if string(slim) != want {
		t.Fatalf("slim page\n got %s\nwant %s", slim, want)
	}
	var page mcp.ListToolsResult
	if err := json.Unmarshal(slim, &page); err != nil || len(page.Tools) != 3 || page.NextCursor != "c2" {
		t.Fatalf("mcp-go reads the slim page as %+v, %v", page, err)
	}
}

// TestReadToolsPageRefusesWhatItDoesNotKnow: a result of another shape is
// left to mcp-go, which decodes it as before and names its problem.
func TestReadToolsPageRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, raw := range []string{
		``, `[]`, `{"tools":{}}`, `{"tools":["x"]}`, `{"tools":[{"name":1}]}`,
		`{"tools":[{"name":"a","inputSchema":true}]}`, `{"tools":[],"tools":[]}`,
		`{"tools":[],"nextCursor":7}`, `{"tools":[{"name":"a"}`, `{"tools":[]} x`,
	} {
		if _, err := Read(json.RawMessage(raw), func(*Wire) {}); err == nil {
			t.Errorf("%s: read", raw)
		}
	}
	if _, err := Read(json.RawMessage(`{"tools":[{"name":"a","inputSchema":true}]}`), func(*Wire) {}); !errors.Is(err, errToolsPage) {
		t.Errorf("error %v is not errToolsPage", err)
	}
}

// FuzzReadToolsPage: whatever the server sends, the reader does not panic,
// and what it accepts gives mcp-go a valid page naming the tools kept, in
// their order, each with an object schema or none.
func FuzzReadToolsPage(f *testing.F) {
	f.Add(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"n"}`)
	f.Add(`{"tools":[{"name":"h","inputSchema":` + headerSchema + `},{"name":"\u202e"}]}`)
	f.Add(`{"nextCursor":"","tools":[],"x":[1,{"tools":2}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var kept []string
		slim, err := Read(json.RawMessage(raw), func(w *Wire) {
			if s := bytes.TrimSpace(w.InputSchema); len(s) > 0 && (s[0] != '{' || !json.Valid(s)) {
				t.Fatalf("kept schema %q", s)
			}
			kept = append(kept, w.Name)
		})
		if err != nil {
			return
		}
		var page struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(slim, &page); err != nil {
			t.Fatalf("slim page %s: %v", slim, err)
		}
		if len(page.Tools) != len(kept) {
			t.Fatalf("slim page names %d tools, kept %d", len(page.Tools), len(kept))
		}
		for i := range kept {
			if page.Tools[i].Name != kept[i] {
				t.Fatalf("tool %d: slim %q, kept %q", i, page.Tools[i].Name, kept[i])
			}
		}
	})
}
