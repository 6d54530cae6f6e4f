package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// enumFlag is a string flag that accepts only the listed values, so a typo is
// a usage error at parse time rather than a surprise later.
type enumFlag struct {
	target  *string
	allowed []string
}

func newEnumFlag(target *string, allowed ...string) *enumFlag {
	return &enumFlag{target: target, allowed: allowed}
}

func (e *enumFlag) String() string { return *e.target }

// Type is shown in help as the flag's value placeholder.
func (e *enumFlag) Type() string { return strings.Join(e.allowed, "|") }

// Set accepts one of the allowed values.
func (e *enumFlag) Set(s string) error {
	if !slices.Contains(e.allowed, s) {
		return fmt.Errorf("must be one of %s", strings.Join(e.allowed, ", "))
	}
	*e.target = s
	return nil
}

// addScopeFlag adds -s/--scope and returns a func giving the chosen scope:
// the default when the flag was not given (0 for "wherever it is").
func addScopeFlag(cmd *cobra.Command, def model.Scope, usage string) func() model.Scope {
	var name string
	if def != 0 {
		name = def.String()
	}
	var names []string
	for _, s := range config.WritableScopes() {
		names = append(names, s.String())
	}
	cmd.Flags().VarP(newEnumFlag(&name, names...), "scope", "s", usage)
	return func() model.Scope {
		s, ok := model.ParseScope(name)
		if !ok {
			return 0
		}
		return s
	}
}
