package contextcost

import (
	"encoding/json"
	"runtime"
	"slices"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// TestCountsMatchTheTokenizer: known inputs give the o200k counts.
func TestCountsMatchTheTokenizer(t *testing.T) {
	var c Counter
	for text, want := range map[string]int{"hello world": 2, "": 0} {
		if n, err := c.Count(text); err != nil || n != want {
			t.Errorf("Count(%q) = %d, %v; want %d", text, n, err, want)
		}
	}
	tool := Tool{Name: "echo", Description: "Echo text back", InputSchema: json.RawMessage(`{"type":"object"}`)}
	n, err := c.ToolTokens(tool)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := c.Count(`{"name":"echo","description":"Echo text back","input_schema":{"type":"object"}}`)
	if n != want || n == 0 {
		t.Fatalf("ToolTokens = %d, want %d", n, want)
	}
}

// TestToDisableGetsUnderTheLimit: the largest tools go first, only as
// many as needed.
func TestToDisableGetsUnderTheLimit(t *testing.T) {
	s := ServerCost{Server: "s", Tokens: 12000, Tools: []ToolCost{{Name: "a", Tokens: 1500}, {Name: "b", Tokens: 1000}, {Name: "c", Tokens: 500}}}
	got := ToDisable(s, ServerLimit)
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Fatalf("%+v", got)
	}
	if got := ToDisable(ServerCost{Tokens: 10}, ServerLimit); len(got) != 0 {
		t.Fatalf("%+v", got)
	}
}

// TestOurO200kIsTiktokens: the encoding built here (loadO200k, kept out
// of tiktoken-go's package-level cache) splits and merges exactly as
// tiktoken.GetEncoding's does.
func TestOurO200kIsTiktokens(t *testing.T) {
	tiktoken.SetBpeLoader(loader.NewOfflineLoader())
	theirs, err := tiktoken.GetEncoding(Encoding)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := loadO200k()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"", "hello world", "Hello, World! It's 2026; we'll see.", "  leading and trailing  \n\n",
		`{"name":"read_file","description":"Read a file's contents","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}`,
		"数字 1234567 和 émoji 🙂 — ünïcödé\r\nCRLF", "<|endoftext|> is ordinary text here",
	} {
		if a, b := ours.EncodeOrdinary(text), theirs.EncodeOrdinary(text); !slices.Equal(a, b) {
			t.Errorf("%q: ours %v, tiktoken's %v", text, a, b)
		}
	}
}

// TestReleaseLetsTheTokenizerGo: after Release nothing keeps the 30 MB
// encoding (tiktoken.GetEncoding's cache kept it for good); a Hold keeps
// it; a count after Release loads it again.
func TestReleaseLetsTheTokenizerGo(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var c Counter
	before := heap()
	if n, err := c.Count("hello world"); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	loaded := heap()
	if loaded < before+10<<20 {
		t.Fatalf("the loaded tokenizer holds %d bytes, expected tens of MB", loaded-before)
	}
	end := c.Hold()
	if c.Release() {
		t.Fatal("Release let the tokenizer go during a Hold")
	}
	end()
	if !c.Release() {
		t.Fatal("Release kept the tokenizer")
	}
	if left := heap(); left > before+(loaded-before)/10 {
		t.Errorf("after Release the heap holds %d MB more than before loading (loaded: %d MB more)", (left-before)>>20, (loaded-before)>>20)
	}
	if n, err := c.Count("hello world"); err != nil || n != 2 {
		t.Fatalf("Count after Release = %d, %v", n, err)
	}
}
