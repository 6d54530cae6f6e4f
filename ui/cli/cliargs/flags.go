package cliargs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// EnumFlag is a string flag that accepts only the listed values, so a typo is
// a usage error at parse time rather than a surprise later.
type EnumFlag struct {
	target  *string
	Allowed []string
}

func NewEnumFlag(target *string, allowed ...string) *EnumFlag {
	return &EnumFlag{target: target, Allowed: allowed}
}

func (e *EnumFlag) String() string { return *e.target }

// Type is shown in help as the flag's value placeholder.
func (e *EnumFlag) Type() string { return strings.Join(e.Allowed, "|") }

// Set accepts one of the allowed values.
func (e *EnumFlag) Set(s string) error {
	if !slices.Contains(e.Allowed, s) {
		return fmt.Errorf("must be one of %s", strings.Join(e.Allowed, ", "))
	}
	*e.target = s
	return nil
}

// AddScopeFlag adds -s/--scope and returns a func giving the chosen scope:
// the default when the flag was not given (0 for "wherever it is").
func AddScopeFlag(cmd *cobra.Command, def model.Scope, usage string) func() model.Scope {
	var name string
	if def != 0 {
		name = def.String()
	}
	var names []string
	for _, s := range config.WritableScopes() {
		names = append(names, s.String())
	}
	cmd.Flags().VarP(NewEnumFlag(&name, names...), "scope", "s", usage)
	return func() model.Scope {
		s, ok := model.ParseScope(name)
		if !ok {
			return 0
		}
		return s
	}
}
