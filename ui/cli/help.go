package cli

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
)

// helpWidth is the width every command's help fits: an 80-column terminal.
const helpWidth = 80

// writeHelp is every command's help, laid out as cobra's (the long text,
// then the usage) with each line within helpWidth: text wrapped under its
// own indentation, a command's summary under the summaries' column, flag
// descriptions by pflag's wrapping. Examples are printed as written, so
// they stay copyable (TestEveryHelpFits80Columns keeps them short).
func writeHelp(c *cobra.Command, _ []string) {
	w := c.OutOrStdout()
	text := c.Long
	if text == "" {
		text = c.Short
	}
	if text = strings.TrimRight(text, " \n"); text != "" {
		fmt.Fprintln(w, reflow(text, helpWidth))
		fmt.Fprintln(w)
	}
	if c.Runnable() || c.HasSubCommands() {
		writeUsageTo(w, c)
	}
}

// writeUsage is writeHelp's usage part, for cobra's usage function.
func writeUsage(c *cobra.Command) error {
	writeUsageTo(c.OutOrStderr(), c)
	return nil
}

func writeUsageTo(w io.Writer, c *cobra.Command) {
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() {
		for _, use := range strings.Split(c.UseLine(), "\n") { // `mcp add` has three
			b.WriteString("\n" + strings.TrimPrefix(hang("    ", strings.TrimSpace(use), helpWidth), "  "))
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nAvailable Commands:")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				name := "  " + sub.Name() + strings.Repeat(" ", max(0, sub.NamePadding()-len(sub.Name()))) + " "
				b.WriteString("\n" + hang(name, sub.Short, helpWidth))
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\nFlags:\n" + trimLines(optionalValues(c.LocalFlags().FlagUsagesWrapped(helpWidth))))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\nGlobal Flags:\n" + trimLines(optionalValues(c.InheritedFlags().FlagUsagesWrapped(helpWidth))))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nUse \"" + c.CommandPath() + " [command] --help\" for more information about a command.")
	}
	fmt.Fprintln(w, b.String())
}

// pflagOptional is how pflag shows a flag whose value may be left out:
// `--sandbox PROFILE[="default"]`, which reads as if PROFILE were required
// and "default" typed in quotes.
var pflagOptional = regexp.MustCompile(` ([A-Za-z_]+)\[="[^"]*"\]`)

// optionalValues writes such a flag as a person does, `--sandbox[=PROFILE]`
// (the usage says what the flag alone means), padded so that the
// descriptions stay in their column.
func optionalValues(usages string) string {
	return pflagOptional.ReplaceAllStringFunc(usages, func(m string) string {
		name := pflagOptional.FindStringSubmatch(m)[1]
		short := "[=" + name + "]"
		return short + strings.Repeat(" ", len(m)-len(short))
	})
}

// reflow fits text into width as a person would by hand: a line that is
// too long is wrapped under its own indentation, and its last words are
// carried into the next line when that line goes on with the same
// paragraph (same indentation, not a new list item), so no word is left
// alone on a line; lines that fit and the lines before them are kept as
// written.
func reflow(text string, width int) string {
	var out []string
	carry := "" // the last words of a wrapped line, waiting for the next
	prefix := ""
	for _, line := range strings.Split(text, "\n") {
		if carry != "" {
			if line != "" && leading(line) == prefix && strings.TrimSpace(prefix) == "" {
				line = prefix + carry + " " + strings.TrimLeft(line, " ")
			} else {
				out = append(out, prefix+carry)
			}
			carry = ""
		}
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		prefix = leading(line)
		wrapped := strings.Split(hang(prefix, line[len(prefix):], width), "\n")
		out = append(out, wrapped[:len(wrapped)-1]...)
		carry = strings.TrimLeft(wrapped[len(wrapped)-1], " ")
		prefix = strings.Repeat(" ", ansi.StringWidth(prefix))
	}
	if carry != "" {
		out = append(out, prefix+carry)
	}
	return strings.Join(out, "\n")
}

// leading is what line's text continues under: its indentation, with a
// list item's "- " or "• ", or, in an indented two-column table
// ("  name    what it is"), up to the second column.
func leading(line string) string {
	rest := strings.TrimLeft(line, " ")
	n := len(line) - len(rest)
	for _, bullet := range []string{"- ", "• "} {
		if strings.HasPrefix(rest, bullet) {
			return line[:n+len(bullet)]
		}
	}
	if n > 0 {
		if word, after, ok := strings.Cut(rest, "  "); ok && !strings.Contains(word, " ") {
			return line[:len(line)-len(strings.TrimLeft(after, " "))]
		}
	}
	return line[:n]
}

// hang is prefix then text wrapped at width, every further line indented
// as far as prefix is wide.
func hang(prefix, text string, width int) string {
	indent := ansi.StringWidth(prefix)
	if indent+ansi.StringWidth(text) <= width || width-indent < 20 {
		return prefix + text
	}
	lines := wordWrap(text, width-indent)
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", indent) + lines[i]
	}
	return prefix + strings.Join(lines, "\n")
}

// wordWrap breaks text at spaces into lines of at most width columns;
// only a word longer than width (a long URL) passes it, whole.
func wordWrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// trimLines drops the spaces pflag leaves at the ends of lines (the padding
// of a flag whose description moved to the next line) and the last newline.
func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
