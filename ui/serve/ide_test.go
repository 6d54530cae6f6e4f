package serve

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/testdata/fakeeditor/editorlaunch"
)

// TestServeOffersAnEditorsAgentTools: an editor that opens the project
// while serve runs reaches the agent with getDiagnostics and executeCode
// only; --ide-tools adds the one named; calls go through.
func TestServeOffersAnEditorsAgentTools(t *testing.T) {
	path := editorlaunch.Build(t)
	watch := func(eo *engine.Options) { eo.Watch = true }
	for _, tc := range []struct {
		opt  []string
		want []string
	}{
		{nil, []string{"ide__executeCode", "ide__getDiagnostics"}},
		{[]string{"openFile"}, []string{"ide__executeCode", "ide__getDiagnostics", "ide__openFile"}},
	} {
		t.Run("ide-tools="+strings.Join(tc.opt, ","), func(t *testing.T) {
			r := newRig(t, map[string]any{}, Options{IDETools: tc.opt}, watch)
			a := r.stdioAgent()
			editorlaunch.Start(t, path, "-dir", filepath.Join(r.load.Home, ".claude"), "-workspace", r.load.Cwd, "-name", "Neovim")
			got := a.waitTools(t, "the editor's tools", func(n []string) bool { return len(n) > 0 })
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("--ide-tools %v: offered %v, want %v", tc.opt, got, tc.want)
			}
			if out, isErr := a.call(t, "ide__executeCode", map[string]any{"code": `print("via serve")`}); isErr || out != "via serve" {
				t.Errorf("ide__executeCode = %q, error %v", out, isErr)
			}
		})
	}
}
