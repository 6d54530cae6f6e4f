package completion

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// completeInBash sources `mcpdeck completion bash` in a bash started
// without any start-up file (so without the bash-completion package unless
// preload names it), completes line as if TAB were pressed at its end,
// and returns the candidates and bash's stderr.
func completeInBash(t *testing.T, preload, line string) (candidates []string, stderr string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script := `source <(mcpdeck completion bash) || exit 9
if [[ -z "$PRELOAD" ]] && declare -F _get_comp_words_by_ref _filedir >/dev/null; then exit 8; fi
COMP_LINE=$LINE; COMP_POINT=${#LINE}
read -r -a COMP_WORDS <<< "$LINE"; COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_mcpdeck
printf '%s\n' "${COMPREPLY[@]}"`
	if preload != "" {
		script = "source " + preload + "\n" + script
	}
	e := clitest.NewEnv(t)
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"PATH=" + filepath.Dir(clitest.Binary) + ":/usr/bin:/bin", "HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config,
		"MCPDECK_MANAGED_DIR=" + e.Managed, "LINE=" + line, "PRELOAD=" + preload,
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, errb.String())
	}
	return strings.Fields(string(out)), errb.String()
}

// TestBashCompletionWorksWithoutTheBashCompletionPackage: the README's
// `source <(mcpdeck completion bash)` completes commands and flag values
// ("=" kept inside the word) in a bash without the bash-completion
// package, where cobra's own script stopped at
// "_get_comp_words_by_ref: command not found"; with the package loaded it
// completes the same.
func TestBashCompletionWorksWithoutTheBashCompletionPackage(t *testing.T) {
	if filepath.Base(clitest.Binary) != "mcpdeck" {
		t.Fatalf("the script calls mcpdeck by name; the test binary is %s", clitest.Binary)
	}
	preloads := []string{""}
	if _, err := os.Stat("/usr/share/bash-completion/bash_completion"); err == nil {
		preloads = append(preloads, "/usr/share/bash-completion/bash_completion")
	}
	for _, pre := range preloads {
		for line, want := range map[string]string{"mcpdeck mc": "mcp", "mcpdeck --log-level=deb": "debug", "mcpdeck mcp ad": "add"} {
			got, stderr := completeInBash(t, pre, line)
			if strings.Contains(stderr, "command not found") || len(got) == 0 || !strings.HasPrefix(got[0], want) {
				t.Errorf("preload %q: %q completes to %q, want %q\nstderr: %s", pre, line, got, want, stderr)
			}
		}
	}
}
