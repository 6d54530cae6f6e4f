package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// BenchmarkSandboxResolve is the part of a sandboxed start that works out
// the profile (the facts and sandbox.Resolve: links resolved, the project
// judged, what runs later found in a writable repository), without the
// mechanism: the default profile, and write-project on a repository with
// a nested one.
func BenchmarkSandboxResolve(b *testing.B) {
	project := filepath.Join(b.TempDir(), "proj")
	for _, d := range []string{".git/hooks", "src/a", "src/b", "vendor/lib/.git/hooks", "docs"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", "vendor/lib/.git/config", ".mcp.json", "README"} {
		if err := os.WriteFile(filepath.Join(project, f), []byte("[core]\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, profile := range []string{model.SandboxProfileDefault, model.SandboxProfileWriteProject} {
		b.Run(profile, func(b *testing.B) {
			l := Launcher{Server: "bench", Project: project}
			s := Spec{Command: "/bin/cat", Args: []string{"README"}, Dir: project, Sandbox: &model.Sandbox{Profile: profile}}
			for b.Loop() {
				cmd, prog, err := l.resolve(s)
				if err != nil {
					b.Fatal(err)
				}
				f, err := l.facts(s, prog, cmd.Dir, "/tmp/x")
				if err != nil {
					b.Fatal(err)
				}
				_ = sandbox.Resolve(s.Sandbox, f)
			}
		})
	}
}
