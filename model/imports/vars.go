package imports

import (
	"fmt"
	"path/filepath"
	"strings"
)

// editorVars returns the variable converter for VS Code and Cursor files:
// ${env:VAR} becomes ${VAR}; ${workspaceFolder}, ${workspaceFolderBasename},
// ${userHome} and ${pathSeparator} (or ${/}) are replaced by their values;
// anything else (${input:id} prompts, ${config:...}, ${command:...}) cannot be
// reproduced by mcpdeck and is an error naming the variable.
func editorVars(client, workspace, home string) func(string) (string, error) {
	return func(s string) (string, error) {
		var b strings.Builder
		for {
			i := strings.Index(s, "${")
			if i < 0 {
				b.WriteString(s)
				return b.String(), nil
			}
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				b.WriteString(s)
				return b.String(), nil
			}
			name := s[i+2 : i+j]
			b.WriteString(s[:i])
			s = s[i+j+1:]
			switch {
			case strings.HasPrefix(name, "env:") && len(name) > len("env:"):
				b.WriteString("${" + strings.TrimPrefix(name, "env:") + "}")
			case name == "workspaceFolder" || name == "workspaceRoot":
				b.WriteString(workspace)
			case name == "workspaceFolderBasename":
				b.WriteString(filepath.Base(workspace))
			case name == "userHome":
				b.WriteString(home)
			case name == "pathSeparator" || name == "/":
				b.WriteString(string(filepath.Separator))
			case strings.HasPrefix(name, "input:"):
				return "", fmt.Errorf("${%s} is a %s input prompt that mcpdeck cannot ask for; set the value with an environment variable and add the server by hand", name, client)
			default:
				return "", fmt.Errorf("${%s} is a %s variable mcpdeck cannot resolve", name, client)
			}
		}
	}
}
