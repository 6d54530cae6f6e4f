package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Bounds on a sampling command: how long it may think, and how much of its
// output is read (a reply is text for a model's context, not a file).
const (
	sampleCommandTimeout = 5 * time.Minute
	maxSampleReply       = 1 << 20
)

// replyByCommand runs the sampling command through the shell with the
// request's params as JSON on stdin and MCPDECK_SERVER_NAME set. Its stdout
// is the reply: a JSON object is taken as a whole CreateMessageResult, any
// other text as the assistant's text. Errors never quote stdout.
func (e *Engine) replyByCommand(ctx context.Context, r SampleRequest) (*mcp.CreateMessageResult, string, error) {
	outcome := "replied (command)"
	ctx, cancel := context.WithTimeout(ctx, sampleCommandTimeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd", "/C", r.Command)
	} else {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", r.Command)
	}
	cmd.Env = append(os.Environ(), "MCPDECK_SERVER_NAME="+r.Server)
	cmd.Stdin = bytes.NewReader(r.Raw)
	cmd.WaitDelay = time.Second
	stdout, stderr := platform.NewCappedBuffer(maxSampleReply), platform.NewCappedBuffer(2048)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("it did not finish within %s", sampleCommandTimeout)
	case ctx.Err() != nil:
		err = ctx.Err()
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("it exited with status %d", ee.ExitCode())
		}
		if s := strings.TrimSpace(stderr.String()); s != "" {
			line, _, _ := strings.Cut(s, "\n")
			err = fmt.Errorf("%w: %s", err, model.SanitizeLine(line))
		}
	case stdout.Over():
		err = fmt.Errorf("it printed more than %d KB", maxSampleReply>>10)
	}
	if err != nil {
		err = fmt.Errorf("sampling command for %s: %w", r.Server, err)
		return nil, "failed: " + model.SanitizeLine(err.Error()), err
	}
	res, err := parseReply(bytes.TrimSpace(stdout.Bytes()))
	if err != nil {
		err = fmt.Errorf("sampling command for %s: %w", r.Server, err)
		return nil, "failed: " + model.SanitizeLine(err.Error()), err
	}
	return res, outcome, nil
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
