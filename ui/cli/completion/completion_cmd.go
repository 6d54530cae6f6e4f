package completion

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/spf13/cobra"
)

// NewCmd builds `mcpdeck completion SHELL`. It takes the place of
// cobra's default command because cobra's bash script calls two functions
// of the bash-completion package (_get_comp_words_by_ref, _filedir), so
// `source <(mcpdeck completion bash)` failed in a plain bash; ours carries
// a fallback for each (bashCompletion).
func NewCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "completion",
		Short: "Generate the autocompletion script for a shell",
		Long: "Generate the autocompletion script for mcpdeck for the specified shell.\n" +
			"See each sub-command's help for details on how to use the generated script.",
		Args: cliargs.NoArgs,
	}
	shell := func(name, long string, gen func(root *cobra.Command, w io.Writer, desc bool) error) *cobra.Command {
		var noDesc bool
		c := &cobra.Command{
			Use:   name,
			Short: "Generate the autocompletion script for " + name,
			Long:  long,
			Args:  cliargs.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				return gen(c.Root(), c.OutOrStdout(), !noDesc)
			},
		}
		c.Flags().BoolVar(&noDesc, "no-descriptions", false, "disable completion descriptions")
		return c
	}
	cmd.AddCommand(
		shell("bash", bashCompletionHelp, bashCompletion),
		shell("zsh", zshCompletionHelp, func(r *cobra.Command, w io.Writer, d bool) error {
			if d {
				return r.GenZshCompletion(w)
			}
			return r.GenZshCompletionNoDesc(w)
		}),
		shell("fish", fishCompletionHelp, func(r *cobra.Command, w io.Writer, d bool) error { return r.GenFishCompletion(w, d) }),
		shell("powershell", powershellCompletionHelp, func(r *cobra.Command, w io.Writer, d bool) error {
			if d {
				return r.GenPowerShellCompletionWithDesc(w)
			}
			return r.GenPowerShellCompletion(w)
		}),
	)
	return cmd
}

// bashFallbacks stand in for the bash-completion package's functions
// where it is not loaded (a plain bash, macOS's bash 3.2): words are split
// at blanks only, as `_get_comp_words_by_ref -n =:` would keep "=" and ":"
// inside them, and files are offered by compgen.
const bashFallbacks = `
# Without the bash-completion package, these stand in for the two of its
# functions the script below calls.
__mcpdeck_get_comp_words_by_ref()
{
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@"
        return
    fi
    local line=${COMP_LINE:0:COMP_POINT}
    read -r -a words <<< "$line"
    if [[ -z $line || $line == *[[:blank:]] ]]; then
        words+=("")
    fi
    cword=$(( ${#words[@]} - 1 ))
    cur=${words[cword]}
    prev=
    if (( cword > 0 )); then
        prev=${words[cword-1]}
    fi
}

__mcpdeck_filedir()
{
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local IFS=$'\n' kind=-f
    [[ ${1-} == -d ]] && kind=-d
    if [[ $(type -t compopt) == builtin ]]; then
        compopt -o filenames 2>/dev/null
    fi
    COMPREPLY+=( $(compgen "$kind" -- "$cur") )
}
`

// bashCompletion writes cobra's bash script with its calls of the
// bash-completion functions going through bashFallbacks. It fails rather
// than write a script that still needs the package (a cobra upgrade that
// changed the calls).
func bashCompletion(root *cobra.Command, w io.Writer, desc bool) error {
	var buf bytes.Buffer
	if err := root.GenBashCompletionV2(&buf, desc); err != nil {
		return err
	}
	script := buf.String()
	for _, call := range []string{`_get_comp_words_by_ref "$@"`, "_filedir"} {
		if !strings.Contains(script, call) {
			return fmt.Errorf("bash completion: the generated script no longer calls %s; update bashCompletion", call)
		}
	}
	script = strings.ReplaceAll(script, `_get_comp_words_by_ref "$@"`, `__mcpdeck_get_comp_words_by_ref "$@"`)
	script = strings.ReplaceAll(script, "_filedir", "__mcpdeck_filedir")
	header, body, _ := strings.Cut(script, "\n")
	_, err := io.WriteString(w, header+"\n"+bashFallbacks+body)
	return err
}

const bashCompletionHelp = `Generate the autocompletion script for the bash shell.

It works in a plain bash; with the bash-completion package loaded it uses
that package's word splitting and file completion.

To load completions in your current shell session:

	source <(mcpdeck completion bash)

To load completions for every new session, execute once:

#### Linux:

	mcpdeck completion bash > /etc/bash_completion.d/mcpdeck

#### macOS:

	mcpdeck completion bash > $(brew --prefix)/etc/bash_completion.d/mcpdeck

or add the source line above to your ~/.bashrc.

You will need to start a new shell for this setup to take effect.
`

const zshCompletionHelp = `Generate the autocompletion script for the zsh shell.

If shell completion is not already enabled in your environment you will need
to enable it.  You can execute the following once:

	echo "autoload -U compinit; compinit" >> ~/.zshrc

To load completions in your current shell session:

	source <(mcpdeck completion zsh)

To load completions for every new session, execute once:

#### Linux:

	mcpdeck completion zsh > "${fpath[1]}/_mcpdeck"

#### macOS:

	mcpdeck completion zsh > $(brew --prefix)/share/zsh/site-functions/_mcpdeck

You will need to start a new shell for this setup to take effect.
`

const fishCompletionHelp = `Generate the autocompletion script for the fish shell.

To load completions in your current shell session:

	mcpdeck completion fish | source

To load completions for every new session, execute once:

	mcpdeck completion fish > ~/.config/fish/completions/mcpdeck.fish

You will need to start a new shell for this setup to take effect.
`

const powershellCompletionHelp = `Generate the autocompletion script for powershell.

To load completions in your current shell session:

	mcpdeck completion powershell | Out-String | Invoke-Expression

To load completions for every new session, add the output of the above command
to your powershell profile.
`
