// Package completion is shell completion: `mcpdeck completion SHELL`, which
// prints the script, and the candidates each command offers at TAB (server
// names, and tools, prompts and resources of approved servers).
package completion

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// argKind is what a positional argument names, for shell completion.
type argKind int

const (
	argServer      argKind = iota // a configured server
	argServerOrAll                // a configured server, or "all"
	argTool                       // a tool of the server before it
	argPrompt                     // a prompt of the server before it
	argResource                   // a resource URI of the server before it
	argSampling                   // always, never or ask (mcp sampling)
)

// completedArgs says, by command path, what each positional argument names.
// Every command taking a server is here (TestEveryServerArgumentCompletes
// keeps it so); flags with a fixed set of values complete from that set.
var completedArgs = map[string][]argKind{
	"mcpdeck mcp get":       {argServer},
	"mcpdeck mcp remove":    {argServer},
	"mcpdeck mcp enable":    {argServerOrAll},
	"mcpdeck mcp disable":   {argServerOrAll},
	"mcpdeck mcp approve":   {argServerOrAll},
	"mcpdeck mcp reject":    {argServerOrAll},
	"mcpdeck mcp reconnect": {argServerOrAll},
	"mcpdeck mcp sampling":  {argServer, argSampling},
	"mcpdeck mcp secret":    {argServer},
	"mcpdeck auth":          {argServer},
	"mcpdeck call":          {argServer, argTool},
	"mcpdeck read":          {argServer, argResource},
	"mcpdeck prompt":        {argServer, argPrompt},
	"mcpdeck tools":         {argServer},
	"mcpdeck resources":     {argServer},
	"mcpdeck prompts":       {argServer},
	"mcpdeck skills":        {argServer},
	"mcpdeck skill":         {argServer},
	"mcpdeck batch":         {argServer},
	"mcpdeck logs":          {argServer},
	"mcpdeck context":       {argServer, argServer, argServer, argServer, argServer, argServer, argServer, argServer},
	"mcpdeck scan":          {argServer, argServer, argServer, argServer, argServer, argServer, argServer, argServer},
	"mcpdeck mcp review":    {argServer, argTool, argTool, argTool, argTool, argTool, argTool, argTool},
}

// AddTo gives every command of the tree its dynamic completions:
// server names, then a server's tools, prompts or resources, and the
// values of every flag with a fixed set (-s, -t, --from, --elicit).
func AddTo(root *cobra.Command, g *clicore.Globals) {
	WalkCommands(root, func(cmd *cobra.Command) {
		if kinds, ok := completedArgs[cmd.CommandPath()]; ok {
			cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				if len(args) >= len(kinds) {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeArg(cmd, g, kinds[len(args)], args), cobra.ShellCompDirectiveNoFileComp
			}
		}
		registerEnumFlags(cmd)
	})
}

// WalkCommands calls fn for cmd and every command below it.
func WalkCommands(cmd *cobra.Command, fn func(*cobra.Command)) {
	fn(cmd)
	for _, c := range cmd.Commands() {
		WalkCommands(c, fn)
	}
}

// completeArg lists the candidates for one argument.
func completeArg(cmd *cobra.Command, g *clicore.Globals, k argKind, args []string) []string {
	switch k {
	case argServer, argServerOrAll:
		out := serverCandidates(g)
		if k == argServerOrAll {
			out = append(out, "all\tevery server this applies to")
		}
		return out
	case argSampling:
		return []string{"always\treply without asking", "never\tdecline without asking", "ask\task each time"}
	case argTool, argPrompt, argResource:
		names, ok := serverNamesFor(cmd.Context(), g, args[0])
		if !ok {
			return nil
		}
		switch k {
		case argTool:
			return cleanCandidates(names.Tools)
		case argPrompt:
			return cleanCandidates(names.Prompts)
		default:
			return cleanCandidates(names.Resources)
		}
	}
	return nil
}

// serverCandidates is every configured server, with its scope and
// transport as the description; read from the config files, nothing started.
func serverCandidates(g *clicore.Globals) []string {
	res, err := clicore.LoadResolved(g)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range res.Servers {
		desc := s.Scope.String() + " · " + string(s.Raw.EffectiveType())
		if s.AwaitsApproval() {
			desc += " · awaiting approval"
		}
		out = append(out, candidate(s.Name, desc))
	}
	return out
}

// cleanCandidates sanitizes names from a server and drops any a shell
// could misread (a tab or newline would split the completion protocol).
func cleanCandidates(names []string) []string {
	var out []string
	for _, n := range names {
		if c := candidate(n, ""); c != "" {
			out = append(out, c)
		}
	}
	return slices.Compact(out)
}

// candidate is one completion line, "name\tdescription", or "" when the
// name cannot be offered safely.
func candidate(name, desc string) string {
	clean := textsafe.SanitizeLine(name)
	if clean == "" || clean != name || strings.ContainsAny(name, "\t\n") {
		return ""
	}
	if desc == "" {
		return clean
	}
	return clean + "\t" + textsafe.SanitizeLine(desc)
}
