package batch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
)

// batchLineOut is one line of `batch --json` output: the input line number,
// the result as call, read and prompt print it with --json (as the server
// sent it, cliout.MCPResult), and the error when the line failed.
type batchLineOut struct {
	Line   int             `json:"line"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// writeBatchResult prints one finished job: a JSON object with --json,
// else "LINE: result" or "LINE: error: why" on one line.
func writeBatchResult(g *clicore.Globals, j *batchJob) error {
	if g.JSON {
		o := batchLineOut{Line: j.line}
		if j.result != nil {
			js, err := cliout.MCPResult(j.result)
			if err != nil {
				return err
			}
			o.Result = js
		}
		if j.err != nil {
			o.Error = textsafe.SanitizeLine(j.err.Error())
		}
		return cliout.WriteJSONLine(g.Stdout, o)
	}
	text := batchText(j.result)
	line := fmt.Sprintf("%d: %s", j.line, text)
	if j.err != nil {
		line = fmt.Sprintf("%d: error: %s", j.line, clierr.Sentence(j.err))
		if text != "" {
			line += " " + text
		}
	}
	_, err := fmt.Fprintln(g.Stdout, textsafe.SanitizeLine(line))
	return err
}

// batchText renders a result on one line: its contents as call, read and
// prompt print them, newlines turned into spaces, and a tool's structured
// result as compact JSON when it has no text.
func batchText(result any) string {
	var buf bytes.Buffer
	switch r := result.(type) {
	case engine.ToolResult:
		_ = cliout.PrintContents(&buf, r.Content)
		if len(r.Structured) > 0 && !cliout.HasText(r.Content) {
			var c bytes.Buffer
			if json.Compact(&c, r.Structured) == nil {
				buf.Write(textsafe.EscapeJSON(c.Bytes()))
			}
		}
	case engine.ResourceResult:
		_ = cliout.PrintContents(&buf, r.Contents)
	case engine.PromptResult:
		if r.Description != "" {
			buf.WriteString("# " + r.Description + "\n")
		}
		_ = cliout.PrintContents(&buf, r.Messages)
	}
	return textsafe.SanitizeLine(strings.TrimSpace(buf.String()))
}
