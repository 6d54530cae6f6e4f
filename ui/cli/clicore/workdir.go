package clicore

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// OptInText says what a cwd naming ${PROJECT_DIR} allows (model.Server.OptsIntoProject):
// `mcp get` and doctor print it.
func OptInText() string {
	return "its cwd ${" + model.ProjectDirVar + "} runs it in the project mcpdeck is started in, so that project's " +
		config.ProjectRedirects + " can change what it runs, with its environment and secrets; " +
		"without that cwd it runs in your home directory"
}

// HomeRelativeText names the relative paths of s that, now that it runs in
// the home directory, name something under home rather than in the
// directory mcpdeck is started in (model.Server.HomeRelative), and the
// opt-in that restores that: `mcp add`, `mcp get` and doctor print it.
func HomeRelativeText(s model.Server) string {
	quoted := make([]string, len(s.HomeRelative))
	for i, a := range s.HomeRelative {
		quoted[i] = textsafe.QuoteArg(a)
	}
	return textsafe.SanitizeLine("server " + s.Name + " runs in your home directory " + ShownRunsIn(s) +
		", so its relative paths " + strings.Join(quoted, ", ") + " now name what is there, not in the project; " +
		`to run it in the project you start mcpdeck in, set "cwd": "${` + model.ProjectDirVar + `}" in ` + s.Source)
}

// ShownRunsIn is model.Server.RunsIn with the server's secrets masked (a
// cwd may be built from ${VAR}s like any other field).
func ShownRunsIn(s model.Server) string {
	return textsafe.NewMasker(s.Secrets()...).Mask(s.RunsIn())
}
