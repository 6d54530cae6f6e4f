package imports

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEntriesFromRepositoryFilesAreShared(t *testing.T) {
	env := fixtureEnv(t)
	for _, c := range Clients() {
		res, err := Read(c, env)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Entries) == 0 {
			t.Fatalf("%s: no entries", c)
		}
		for _, e := range res.Entries {
			inRepo := within(e.Source, env.Cwd)
			if e.Shared != inRepo {
				t.Errorf("%s: %s from %s: shared=%v, want %v", c, e.Name, e.Source, e.Shared, inRepo)
			}
		}
	}

	// Another repository's file named with --file is shared too.
	other := filepath.Join(filepath.Dir(env.Home), "other", ".vscode", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte(`{"servers": {"x": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ReadFile(VSCode, other, env)
	if err != nil || len(res.Entries) != 1 || !res.Entries[0].Shared {
		t.Errorf("--file of another repository: %+v %v", res.Entries, err)
	}

	// Working in the home directory: ~/.cursor/mcp.json is still the user's.
	env.Cwd = env.Home
	res, err = Read(Cursor, env)
	if err != nil || len(res.Entries) == 0 {
		t.Fatalf("cursor from home: %+v %v", res, err)
	}
	for _, e := range res.Entries {
		if e.Shared {
			t.Errorf("~/.cursor/mcp.json entry %s is shared", e.Name)
		}
	}
}
