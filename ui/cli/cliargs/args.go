package cliargs

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/spf13/cobra"
)

// NoArgs rejects positional arguments, naming an unknown subcommand.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s, ok := clinames.ClosestSubcommand(cmd, args[0]); ok {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return clierr.Usagef("%s", msg)
}

// ExactArgs requires n positional arguments, described by what ("NAME").
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return clierr.Usagef("%s takes %s, got %d argument%s", strings.TrimPrefix(cmd.CommandPath(), "mcpdeck "), what, len(args), Plural(len(args)))
		}
		return nil
	}
}

func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// RangeArgs requires between lo and hi positional arguments.
func RangeArgs(lo, hi int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return clierr.Usagef("%s takes %s, got %d argument%s", cmd.CommandPath(), what, len(args), Plural(len(args)))
		}
		return nil
	}
}

// MinimumArgs requires at least lo positional arguments.
func MinimumArgs(lo int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo {
			return clierr.Usagef("%s takes %s, got %d argument%s", cmd.CommandPath(), what, len(args), Plural(len(args)))
		}
		return nil
	}
}
