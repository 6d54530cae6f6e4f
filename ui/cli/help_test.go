package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestEveryHelpFits80Columns: `--help` of every command, hidden ones and
// `help COMMAND` too, keeps every line within 80 columns; the text is
// wrapped, not cut (the root's first paragraph reads on across lines).
func TestEveryHelpFits80Columns(t *testing.T) {
	t.Parallel()
	g := &clicore.Globals{
		Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
		NewLoadOptions: func([]string) (config.LoadOptions, error) { return config.LoadOptions{}, nil },
	}
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(path[:len(path):len(path)], sub.Name()))
		}
	}
	walk(newRootCmd(g), nil)
	if len(paths) < 30 {
		t.Fatalf("walked %d commands", len(paths))
	}
	paths = append(paths, []string{"help", "mcp", "add"})
	for _, path := range paths {
		var out, errb bytes.Buffer
		args := append(path[:len(path):len(path)], "--help")
		if len(path) > 0 && path[0] == "help" {
			args = path
		}
		if code := Run(context.Background(), args, strings.NewReader(""), &out, &errb); code != clierr.ExitOK || out.Len() == 0 {
			t.Errorf("%v: exit %d, %d bytes: %s", args, code, out.Len(), errb.String())
			continue
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("%v: a line of %d columns:\n%s", args, w, line)
			}
		}
	}
	var out bytes.Buffer
	Run(context.Background(), []string{"--help"}, strings.NewReader(""), &out, &bytes.Buffer{})
	if flat := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(flat, "asks before starting servers a repository brought along, connects to them") {
		t.Errorf("the root's text lost words:\n%s", out.String())
	}
}

// TestHelpShowsOptionalValuesAsTyped: a flag whose value may be left out
// reads `--sandbox[=PROFILE]`, not pflag's `--sandbox PROFILE[="default"]`
// (which reads as a required PROFILE and a quoted default), and the
// descriptions keep their column.
func TestHelpShowsOptionalValuesAsTyped(t *testing.T) {
	e := clitest.NewEnv(t)
	out := e.OK("mcp", "add", "--help").Stdout
	if strings.Contains(out, `[="`) || !strings.Contains(out, "      --sandbox[=PROFILE]             run the stdio server in a sandbox") {
		t.Errorf("mcp add --help:\n%s", out)
	}
}
