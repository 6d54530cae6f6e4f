package transports

import (
	"os"
	"os/exec"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// mergeEnv returns base with overrides applied (overrides win, keys unique).
func mergeEnv(base []string, overrides map[string]string) []string {
	if len(overrides) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(overrides))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := overrides[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range overrides {
		out = append(out, k+"="+v)
	}
	return out
}

// resolveWithEnvPath looks a bare command up in the server's own PATH when
// its env sets one, as a shell would.
func resolveWithEnvPath(cmd *exec.Cmd, cfg model.ServerConfig) {
	path, ok := cfg.Env["PATH"]
	if !ok || strings.ContainsRune(cfg.Command, os.PathSeparator) {
		return
	}
	for _, dir := range strings.Split(path, string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		p := dir + string(os.PathSeparator) + cfg.Command
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			cmd.Path, cmd.Err = p, nil
			return
		}
	}
}
