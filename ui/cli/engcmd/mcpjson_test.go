package engcmd

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// mcpDoc is --json output read loosely: every member kept as written.
type mcpDoc map[string]json.RawMessage

func decodeDoc(t *testing.T, what, s string) mcpDoc {
	t.Helper()
	var d mcpDoc
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, s)
	}
	return d
}

// items decodes d[key] as an array of objects.
func (d mcpDoc) items(t *testing.T, key string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(d[key], &out); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return out
}

// keysOf lists an object's keys, sorted.
func keysOf(m map[string]any) string { return strings.Join(slices.Sorted(maps.Keys(m)), ",") }

// TestResultJSONIsWhatTheServerSent: call --json prints the content items
// as MCP defines them, with nothing added (no "size", no "path").
func TestResultJSONIsWhatTheServerSent(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	d := decodeDoc(t, "call --json", e.OK("--mcp-config", cfg, "--json", "call", "calc", "calculate", "op=add", "a=1", "b=2").Stdout)
	c := d.items(t, "content")
	if len(c) != 1 || keysOf(c[0]) != "text,type" || c[0]["type"] != "text" || c[0]["text"] != "3" {
		t.Errorf("content = %v, want exactly [{type: text, text: 3}]", c)
	}
	if _, ok := d["_mcpdeck"]; ok {
		t.Errorf("nothing saved, yet _mcpdeck is there: %v", d)
	}
	d = decodeDoc(t, "prompt --json", e.OK("--mcp-config", cfg, "--json", "prompt", "calc", "explain", "expression=1+1").Stdout)
	m := d.items(t, "messages")
	if len(m) != 1 || keysOf(m[0]) != "content,role" || m[0]["role"] != "user" {
		t.Fatalf("messages = %v, want [{role, content}]", m)
	}
	if content, _ := m[0]["content"].(map[string]any); keysOf(content) != "text,type" || content["text"] != "Explain step by step: 1+1" {
		t.Errorf("message content = %v", m[0]["content"])
	}
}

// TestBinaryResultJSONNamesTheSavedFileApart: server-everything's image
// and blob resources come out as sent (base64 data, mimeType), in call,
// prompt, read and batch alike; the file mcpdeck saved the data to is
// named under "_mcpdeck" with the JSON Pointer of its item.
func TestBinaryResultJSONNamesTheSavedFileApart(t *testing.T) {
	npmDir := clitest.NeedNpxEverything(t)
	e := clitest.NewEnv(t)
	script := filepath.Join(npmDir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cfg := clitest.EngServers(t, map[string]any{"everything": map[string]any{"command": "node", "args": []string{script, "stdio"}}})

	d := decodeDoc(t, "call --json", e.OK("--mcp-config", cfg, "--json", "call", "everything", "get-tiny-image").Stdout)
	c := d.items(t, "content")
	if len(c) != 3 || keysOf(c[1]) != "data,mimeType,type" || c[1]["type"] != "image" || c[1]["mimeType"] != "image/png" {
		t.Fatalf("image content = %v", c)
	}
	checkSaved(t, d, "/content/1", c[1]["data"].(string))

	d = decodeDoc(t, "prompt --json", e.OK("--mcp-config", cfg, "--json", "prompt", "everything", "resource-prompt", "resourceType=Blob", "resourceId=1").Stdout)
	m := d.items(t, "messages")
	content, _ := m[len(m)-1]["content"].(map[string]any)
	res, _ := content["resource"].(map[string]any)
	if content["type"] != "resource" || keysOf(res) != "blob,mimeType,uri" {
		t.Fatalf("embedded resource message = %v", m)
	}
	checkSaved(t, d, "/messages/1/content", res["blob"].(string))

	d = decodeDoc(t, "read --json", e.OK("--mcp-config", cfg, "--json", "read", "everything", "demo://resource/dynamic/blob/1").Stdout)
	rc := d.items(t, "contents")
	if len(rc) != 1 || keysOf(rc[0]) != "blob,mimeType,uri" {
		t.Fatalf("contents = %v", rc)
	}
	checkSaved(t, d, "/contents/0", rc[0]["blob"].(string))

	r := e.RunStdin(`{"tool": "get-tiny-image"}`+"\n", "--mcp-config", cfg, "--json", "batch", "everything")
	var line struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &line); err != nil || r.Code != 0 {
		t.Fatalf("batch --json: %v\n%s", err, r)
	}
	d = decodeDoc(t, "batch result", string(line.Result))
	if c = d.items(t, "content"); len(c) != 3 || keysOf(c[1]) != "data,mimeType,type" {
		t.Fatalf("batch content = %v", c)
	}
	checkSaved(t, d, "/content/1", c[1]["data"].(string))
}

// checkSaved checks that d's _mcpdeck names exactly one saved file, for
// item, and that it holds the base64 data the item carries.
func checkSaved(t *testing.T, d mcpDoc, item, data string) {
	t.Helper()
	var extra struct {
		Files []struct {
			Item string `json:"item"`
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal(d["_mcpdeck"], &extra); err != nil || len(extra.Files) != 1 || extra.Files[0].Item != item {
		t.Fatalf("_mcpdeck = %s (%v), want one file for %s", d["_mcpdeck"], err, item)
	}
	want, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(extra.Files[0].Path)
	if err != nil || string(got) != string(want) {
		t.Errorf("%s: the saved file does not hold the item's data (%v)", extra.Files[0].Path, err)
	}
}
