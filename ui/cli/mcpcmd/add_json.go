package mcpcmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

func newMCPAddJSONCmd(g *clicore.Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "add-json NAME JSON",
		Short: "Add a server from its JSON definition (the .mcp.json format)",
		Example: `  mcpdeck mcp add-json my-api '{"type":"http","url":"https://example.com/mcp",
    "headers":{"Authorization":"Bearer ${API_TOKEN}"}}'`,
		Args: cliargs.ExactArgs(2, "a server NAME and its JSON definition"),
	}
	scope := cliargs.AddScopeFlag(cmd, model.ScopeLocal, "where to save it: local, user or project")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		name := args[0]
		if err := checkNewName(name); err != nil {
			return err
		}
		cfg, err := parseServerJSON(name, args[1])
		if err != nil {
			return err
		}
		opts, err := g.LoadOptions()
		if err != nil {
			return err
		}
		path, err := config.AddServer(opts, scope(), name, cfg)
		if err != nil {
			return err
		}
		for _, u := range config.UnknownFields(cfg) {
			fmt.Fprintf(g.Stderr, "Note: %s; it is kept as written.\n", unknownFieldText(u))
		}
		warnLiteralSecrets(g.Stderr, scope(), name, cfg)
		reportAdded(g, opts, scope(), name, cfg, path)
		return nil
	}
	return cmd
}

// parseServerJSON decodes one definition strictly about the known fields'
// types (the model's decoder) and says which field is wrong. An unknown
// field close to a known one ("agrs") is refused as the typo it most likely
// is: the server would run without what it meant. Other unknown fields are
// kept, as the file keeps them (another client may use them), and named.
func parseServerJSON(name, text string) (model.ServerConfig, error) {
	var cfg model.ServerConfig
	trimmed := strings.TrimSpace(text)
	// Text that is not a JSON object at all is a mistake in the command
	// line (exit 2); an object with a wrong field is an invalid definition.
	var obj map[string]any
	if err := cliargs.DecodeObject(trimmed, &obj); err != nil {
		return cfg, clierr.Usagef("the definition of server %s must be a JSON object like {\"command\": \"npx\", \"args\": [...]}: %v", name, err)
	}
	if err := json.Unmarshal([]byte(trimmed), &cfg); err != nil {
		return cfg, fmt.Errorf("%w: the JSON definition of server %s is not valid: %s", model.ErrInvalid, name, err.Error())
	}
	for _, u := range config.UnknownFields(cfg) {
		if t := typoOf(u); t != "" {
			return cfg, fmt.Errorf("%w: the definition of server %s has an unknown field %q: did you mean %q? (nothing was added)", model.ErrInvalid, name, u.Field, t)
		}
	}
	return cfg, nil
}
