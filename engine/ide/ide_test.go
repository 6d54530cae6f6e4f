package ide

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

const token = "a3f1c2d4e5f60718293a4b5c6d7e8f90"

// TestParse: a lock file as the plugins write it, and every way one is
// refused; the token never appears in an error.
func TestParse(t *testing.T) {
	good := `{"pid":4242,"workspaceFolders":["/p"],"ideName":"Neovim","transport":"ws","authToken":"` + token + `"}`
	l, err := Parse("51234.lock", []byte(good))
	if err != nil || l.Port != 51234 || l.PID != 4242 || l.Name != "Neovim" || l.Transport.Name != model.TransportWSIDE ||
		l.Token != token || len(l.Workspaces) != 1 {
		t.Fatalf("Parse = %+v, %v", l, err)
	}
	l, err = Parse("7.lock", []byte(`{"pid":1,"ideName":"VS Code"}`))
	if err != nil || l.Transport.Name != model.TransportSSEIDE || l.Token != "" {
		t.Fatalf("no transport: %+v, %v; want sse-ide with no token", l, err)
	}
	for _, tc := range []struct{ name, file, body string }{
		{"not a port", "abc.lock", good},
		{"port zero", "0.lock", good},
		{"port too big", "65536.lock", good},
		{"leading zero", "080.lock", good},
		{"not json", "1.lock", `{"pid":`},
		{"array", "1.lock", `[1]`},
		{"no pid", "1.lock", `{"transport":"ws","authToken":"` + token + `"}`},
		{"negative pid", "1.lock", `{"pid":-1,"transport":"ws","authToken":"` + token + `"}`},
		{"unknown transport", "1.lock", `{"pid":1,"transport":"stdio","authToken":"` + token + `"}`},
		{"no token", "1.lock", `{"pid":1,"transport":"ws"}`},
		{"short token", "1.lock", `{"pid":1,"transport":"ws","authToken":"abc"}`},
		{"token with newline", "1.lock", `{"pid":1,"transport":"ws","authToken":"` + token + `\r\nX-Evil: 1"}`},
		{"remote host", "1.lock", `{"pid":1,"host":"203.0.113.9","transport":"ws","authToken":"` + token + `"}`},
		{"remote name", "1.lock", `{"pid":1,"host":"localhost.evil.example","transport":"ws","authToken":"` + token + `"}`},
	} {
		_, err := Parse(tc.file, []byte(tc.body))
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if strings.Contains(err.Error(), token) {
			t.Errorf("%s: error %q holds the token", tc.name, err)
		}
		if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNotLocal) && !errors.Is(err, ErrNotEditors) {
			t.Errorf("%s: %v is no sentinel", tc.name, err)
		}
	}
	if _, err := Parse("1.lock", []byte(`{"pid":1,"host":"[::1]","transport":"ws","authToken":"`+token+`"}`)); err != nil {
		t.Errorf("host ::1: %v", err)
	}
}

// TestParseSanitizesName: escape sequences and controls in ideName never
// reach a terminal, and a huge name is cut.
func TestParseSanitizesName(t *testing.T) {
	for raw, want := range map[string]string{
		`"\u001b]0;pwned\u0007Evil\u001b[2J\nEditor"`: "Evil Editor",
		`"\u202eedoC SV"`:                    "edoC SV",
		`""`:                                 "editor",
		`"` + strings.Repeat("x", 500) + `"`: strings.Repeat("x", maxNameLen) + "…",
	} {
		l, err := Parse("1.lock", []byte(`{"pid":1,"ideName":`+raw+`}`))
		if err != nil || l.Name != want {
			t.Errorf("ideName %s: %q, %v; want %q", raw, l.Name, err, want)
		}
		if textsafe.SanitizeLine(l.Name) != l.Name {
			t.Errorf("ideName %s left %q unsanitized", raw, l.Name)
		}
	}
}

// TestCheckFile: the lock-file trust rule.
func TestCheckFile(t *testing.T) {
	ok := FileFacts{Regular: true, Owned: true, Size: 200}
	if err := CheckFile(ok); err != nil {
		t.Fatalf("a plain file of yours: %v", err)
	}
	for name, f := range map[string]FileFacts{
		"symlink":        {Symlink: true, Regular: true, Owned: true},
		"directory":      {Owned: true},
		"someone else's": {Regular: true},
		"writable":       {Regular: true, Owned: true, Writable: true},
		"oversized":      {Regular: true, Owned: true, Size: MaxLockSize + 1},
	} {
		if err := CheckFile(f); !errors.Is(err, ErrUntrusted) {
			t.Errorf("%s: %v, want ErrUntrusted", name, err)
		}
	}
}

// TestContains: whole path elements only, absolute paths only.
func TestContains(t *testing.T) {
	sep := string(filepath.Separator)
	abs := func(p ...string) string { return sep + filepath.Join(p...) }
	for _, tc := range []struct {
		folder, project string
		want            bool
	}{
		{abs("a", "b"), abs("a", "b"), true},
		{abs("a", "b"), abs("a", "b", "c"), true},
		{abs("a", "b") + sep, abs("a", "b", "c"), true},
		{abs("a", "b"), abs("a", "bc"), false},
		{abs("a", "b"), abs("a"), false},
		{abs("a", "b", "..", "c"), abs("a", "c", "d"), true},
		{abs("a", "b", "..", "c"), abs("a", "b", "d"), false},
		{"a/b", "a/b/c", false},
		{sep, abs("x"), true},
	} {
		if got := Contains(tc.folder, tc.project); got != tc.want {
			t.Errorf("Contains(%q, %q) = %v, want %v", tc.folder, tc.project, got, tc.want)
		}
	}
}

func editor(name, folder string, port, pid int) Editor {
	return Editor{Lock: Lock{Port: port, PID: pid, Name: name, Transport: model.TransportWSIDE.Info(), Token: token}, Folder: folder}
}

func names(m map[string]Editor) map[string]int {
	out := map[string]int{}
	for n, e := range m {
		out[n] = e.Lock.Port
	}
	return out
}

// TestNames: ide, ide-2...; a name stays with its editor while it lives
// and across a restart (new port and pid), is freed when it goes, and
// never takes a configured name.
func TestNames(t *testing.T) {
	var n Names
	none := func(string) bool { return false }
	got := names(n.Assign([]Editor{editor("VS Code", "/p", 2000, 20), editor("Neovim", "/p", 1000, 10)}, none))
	if got["ide"] != 1000 || got["ide-2"] != 2000 || len(got) != 2 {
		t.Fatalf("first: %v", got)
	}
	// Neovim restarts on a new port; a third editor arrives.
	got = names(n.Assign([]Editor{editor("VS Code", "/p", 2000, 20), editor("Neovim", "/p", 3000, 30), editor("Emacs", "/p", 500, 5)}, none))
	if got["ide"] != 3000 || got["ide-2"] != 2000 || got["ide-3"] != 500 {
		t.Fatalf("after a restart: %v", got)
	}
	// Neovim quits: its name is free for the next newcomer, the others keep theirs.
	got = names(n.Assign([]Editor{editor("VS Code", "/p", 2000, 20), editor("Emacs", "/p", 500, 5), editor("Zed", "/p", 600, 6)}, none))
	if got["ide"] != 600 || got["ide-2"] != 2000 || got["ide-3"] != 500 {
		t.Fatalf("after one left: %v", got)
	}
	// Two windows of one editor on one folder; and "ide" defined in a file.
	var m Names
	got = names(m.Assign([]Editor{editor("Code", "/p", 2, 1), editor("Code", "/p", 1, 1)}, func(s string) bool { return s == "ide" }))
	if got["ide-2"] != 1 || got["ide-3"] != 2 || len(got) != 2 {
		t.Fatalf("two windows beside a configured ide: %v", got)
	}
}

// TestServer: the definition an editor becomes; its token is in the
// server's secret set and masked wherever the definition is shown.
func TestServer(t *testing.T) {
	s := editor("Neovim", "/p", 51234, 4242).Server("ide")
	if s.Config.URL != "ws://127.0.0.1:51234" || s.Config.Type != model.TransportWSIDE || s.Source != "from Neovim (pid 4242)" ||
		s.Scope != model.ScopeDynamic || s.AwaitsApproval() || !s.Runnable() || s.Editor == nil || s.Editor.PID != 4242 {
		t.Fatalf("server %+v", s)
	}
	if got := s.Config.Headers[model.TransportWSIDE.Info().TokenHeader]; got != token {
		t.Fatalf("token header %q", got)
	}
	mask := textsafe.NewMasker(s.Secrets()...)
	if out := mask.Mask("dial failed with " + token); strings.Contains(out, token) {
		t.Fatalf("the token is not in the secret set: %q", out)
	}
	if red := model.Redact(s.Raw); strings.Contains(red.Headers[model.TransportWSIDE.Info().TokenHeader], token) {
		t.Fatalf("Redact left the token: %v", red.Headers)
	}
	sse := Editor{Lock: Lock{Port: 7, PID: 1, Name: "X", Transport: model.TransportSSEIDE.Info()}, Folder: "/p"}.Server("ide")
	if sse.Config.URL != "http://127.0.0.1:7/sse" || len(sse.Config.Headers) != 0 {
		t.Fatalf("sse-ide server %+v", sse.Config)
	}
}
