package samplereq

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Bounds on a sampling command: how long it may think, and how much of its
// output is read (a reply is text for a model's context, not a file).
const (
	sampleCommandTimeout = 5 * time.Minute
	maxSampleReply       = 1 << 20
)

// ByCommand runs command, the sampling command srv's requests are
// answered by, through the shell runner (launch.RunShell: its own process
// group, judged by managed policy as the shell it is) in dir with params,
// the request's, as JSON on stdin and MCPDECK_SERVER_NAME set. Its stdout
// is the reply: a JSON object is taken as a whole CreateMessageResult,
// any other text as the assistant's text. It returns the outcome in words
// for the history too. Errors never quote stdout.
func ByCommand(ctx context.Context, srv model.Server, command, dir string, params []byte) (*mcp.CreateMessageResult, string, error) {
	out, err := launch.For(srv).PersonsProgram().RunShell(ctx, command,
		map[string]string{"MCPDECK_SERVER_NAME": srv.Name}, dir, params,
		platform.Limits{Timeout: sampleCommandTimeout, MaxOutput: maxSampleReply})
	if err == nil {
		var res *mcp.CreateMessageResult
		if res, err = parseReply(bytes.TrimSpace(out)); err == nil {
			return res, "replied (command)", nil
		}
	}
	err = fmt.Errorf("sampling command for %s: %w", srv.Name, err)
	return nil, "failed: " + textsafe.SanitizeLine(err.Error()), err
}

// parseReply reads a command's output: a JSON object is a
// CreateMessageResult (role and model filled in when missing), anything else
// the reply's text.
func parseReply(out []byte) (*mcp.CreateMessageResult, error) {
	if len(out) > 0 && out[0] == '{' {
		var res mcp.CreateMessageResult
		if err := json.Unmarshal(out, &res); err != nil {
			return nil, fmt.Errorf("its output starts with { but is not a CreateMessageResult: %w", err)
		}
		c, err := mcp.ParseSamplingContent(res.Content)
		if err != nil || c == nil {
			return nil, errors.New(`its JSON output has no valid "content"`)
		}
		res.Content = c
		if res.Role == "" {
			res.Role = mcp.RoleAssistant
		}
		if res.Model == "" {
			res.Model = "command"
		}
		return &res, nil
	}
	res := &mcp.CreateMessageResult{Model: "command", StopReason: "endTurn"}
	res.Role = mcp.RoleAssistant
	res.Content = mcp.NewTextContent(string(out))
	return res, nil
}
