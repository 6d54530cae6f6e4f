package engcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// NewSkillsCmds builds skills (list) and skill (load one).
func NewSkillsCmds(g *clicore.Globals) []*cobra.Command {
	list := engListing{use: "skills", short: "List the skills of every server (or of SERVER), with their files; nothing is read", items: engSkillItems}
	skills := &cobra.Command{
		Use:   "skills [SERVER]",
		Short: list.short,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := clisession.NewEngineFlags(g)
			f.InlineAuth = len(args) == 1
			return clierr.Cancelled(runEngListing(cmd.Context(), f, list, args))
		},
	}
	skill := &cobra.Command{
		Use:   "skill SERVER NAME",
		Short: "Load a skill: read its files, verify each against the list, print its SKILL.md",
		Long: "Reads every file the skill lists and checks its size and sha256 digest, and the\n" +
			"SKILL.md frontmatter, against what the server listed. On any mismatch nothing is\n" +
			"printed and the command fails naming the file.",
		Example: `  mcpdeck skill docs pdf-processing`,
		Args:    cliargs.RangeArgs(2, 2, "SERVER NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := clisession.NewEngineFlagsInline(g)
			return clierr.Cancelled(clisession.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clisession.Session) error {
				sk, err := s.Eng.LoadSkill(ctx, args[0], args[1])
				var refused *engine.SkillError
				if errors.As(err, &refused) {
					return err // it names the server, skill and file
				}
				if err != nil {
					return engCallErr(f, fmt.Sprintf("load skill %s from %s", args[1], args[0]), err)
				}
				if g.JSON {
					return cliout.WriteJSON(g.Stdout, sk)
				}
				text := sk.Manifest
				if !strings.HasSuffix(text, "\n") {
					text += "\n"
				}
				_, err = fmt.Fprint(g.Stdout, text)
				return err
			}))
		},
	}
	return []*cobra.Command{skills, skill}
}

// engSkillItems lists each skill with its files and sizes; a skill that
// cannot be loaded says why.
func engSkillItems(srv engine.ServerSnapshot) (any, []string, int) {
	var lines []string
	for _, s := range srv.Skills {
		line := textsafe.SanitizeLine(s.Name)
		if d := engSummary("", s.Description); d != "" {
			line += " — " + d
		}
		lines = append(lines, line)
		for _, f := range s.Files {
			lines = append(lines, fmt.Sprintf("    %s (%s)", textsafe.SanitizeLine(f.URI), status.Plural(int(f.Size), "byte")))
		}
		if s.Problem != "" {
			lines = append(lines, "    cannot be loaded: "+textsafe.SanitizeLine(s.Problem))
		}
	}
	items := srv.Skills
	if items == nil {
		items = []engine.Skill{}
	}
	return items, lines, len(srv.Skills)
}
