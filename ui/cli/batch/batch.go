// Package batch is `mcpdeck batch SERVER`: one connection to a server, many
// requests read as JSON lines from standard input, a bounded number in
// flight, one result line each in input order.
package batch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// Limits of batch: requests in flight at once, and the longest input line.
const (
	batchMaxParallel = 256
	batchMaxLine     = 16 << 20
)

// NewCmd builds `mcpdeck batch SERVER`.
func NewCmd(g *clicore.Globals) *cobra.Command {
	parallel := 1
	cmd := &cobra.Command{
		Use:   "batch SERVER",
		Short: "Run JSON-lines requests from stdin in one session with SERVER",
		Long: "Reads one request per line from stdin and runs them all on one connection to SERVER:\n" +
			`  {"tool": NAME, "arguments": {...}}` + "\n" +
			`  {"read": URI}` + "\n" +
			`  {"prompt": NAME, "arguments": {...}}` + "\n" +
			"Blank lines and lines starting with # are skipped. -P N runs up to N requests at\n" +
			"a time; results are printed one line per request in input order, as \"LINE: result\"\n" +
			"or, with --json, as {\"line\": N, \"result\": {...}, \"error\": \"...\"}. A malformed line\n" +
			"fails alone; the exit code is 1 when any line failed.",
		Example: `  printf '%s\n' '{"tool":"get-sum","arguments":{"a":2,"b":3}}' \
    '{"read":"demo://resource/static/document/features.md"}' \
    '{"prompt":"args-prompt","arguments":{"city":"Lisbon"}}' \
    | mcpdeck batch everything -P 4 --json`,
		Args: cliargs.RangeArgs(1, 1, "SERVER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if parallel < 1 || parallel > batchMaxParallel {
				return clierr.Usagef("-P must be between 1 and %d, got %d", batchMaxParallel, parallel)
			}
			return clierr.Cancelled(runBatch(cmd.Context(), clisession.NewEngineFlagsInline(g), args[0], parallel))
		},
	}
	cmd.Flags().IntVarP(&parallel, "parallel", "P", 1, "run up to `N` requests at a time")
	return cmd
}

// batchJob is one input line on its way to the output.
type batchJob struct {
	line   int
	req    batchRequest
	result any   // engine.ToolResult, ResourceResult or PromptResult
	err    error // why the line failed: malformed, refused, or the request's error
	done   chan struct{}
}

// batchInput is one non-skipped line read from stdin, or the read error.
type batchInput struct {
	line int
	text string
	err  error
}

// runBatch connects server alone and runs stdin's requests on it, parallel
// at a time, printing results in input order as they become printable.
func runBatch(ctx context.Context, f *clisession.EngineFlags, server string, parallel int) error {
	g := f.Globals
	return clisession.WithServer(ctx, f, server, func(ctx context.Context, s *clisession.Session) error {
		inputs := make(chan batchInput)
		go scanBatchInput(ctx, g.Input(), inputs)
		// pending holds jobs in input order; the printer waits for each in
		// turn, so a result that finishes early waits for earlier ones.
		pending := make(chan *batchJob, parallel)
		out := make(chan batchTally, 1)
		go printBatch(g, pending, out)
		dispatchBatch(ctx, inputs, pending, parallel, func(j *batchJob) { runBatchJob(ctx, s.Eng, server, j) })
		p := <-out
		switch {
		case p.err != nil:
			return p.err
		case ctx.Err() != nil:
			return ctx.Err()
		case p.failed > 0:
			fmt.Fprintf(g.Stderr, "mcpdeck: %s of the batch failed.\n", status.Plural(p.failed, "request"))
			return clierr.SilentError{}
		}
		return nil
	})
}

// batchTally is what the printer saw: how many requests failed, and the
// first error writing a result.
type batchTally struct {
	failed int
	err    error
}

// printBatch writes each job's result as it is done, in input order, and
// sends the tally once pending is closed and drained.
func printBatch(g *clicore.Globals, pending <-chan *batchJob, out chan<- batchTally) {
	var p batchTally
	for j := range pending {
		<-j.done
		if j.err != nil {
			p.failed++
		}
		if p.err == nil {
			p.err = writeBatchResult(g, j)
		}
	}
	out <- p
}

// dispatchBatch turns each input line into a job on pending, in order,
// and runs at most parallel of them at once; a line that cannot be read
// or parsed is a job done already, and a failed read ends the input. It
// returns, pending closed, once every job it started has run.
func dispatchBatch(ctx context.Context, inputs <-chan batchInput, pending chan<- *batchJob, parallel int, run func(*batchJob)) {
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	defer func() {
		close(pending)
		wg.Wait()
	}()
	for {
		in, ok := nextBatchInput(ctx, inputs)
		if !ok {
			return
		}
		j := newBatchJob(in)
		if j.err != nil {
			pending <- j
			if in.err != nil {
				return // stdin itself failed: nothing more to read
			}
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		if ctx.Err() != nil { // a slot freed as the batch was cancelled: both were ready, and select picks either
			return
		}
		pending <- j
		wg.Go(func() {
			defer func() { <-slots }()
			run(j)
			close(j.done)
		})
	}
}

// nextBatchInput is the next input line, or false once the input ended or
// ctx did.
func nextBatchInput(ctx context.Context, inputs <-chan batchInput) (batchInput, bool) {
	select {
	case <-ctx.Done():
		return batchInput{}, false
	case in, ok := <-inputs:
		return in, ok
	}
}

// newBatchJob is the job for one input line: its request, or the error
// reading or parsing it, in which case the job is done already.
func newBatchJob(in batchInput) *batchJob {
	j := &batchJob{line: in.line, done: make(chan struct{})}
	if j.err = in.err; j.err == nil {
		j.req, j.err = parseBatchLine(in.text)
	}
	if j.err != nil {
		close(j.done)
	}
	return j
}

// scanBatchInput sends stdin's request lines, numbered from 1, skipping
// blank and comment lines, and closes inputs at the end (or ctx). A line
// over batchMaxLine or a read error is sent as an error and ends input.
func scanBatchInput(ctx context.Context, r io.Reader, inputs chan<- batchInput) {
	defer close(inputs)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), batchMaxLine)
	n := 0
	send := func(in batchInput) bool {
		select {
		case inputs <- in:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for sc.Scan() {
		n++
		if isBatchSkipped(sc.Text()) {
			continue
		}
		if !send(batchInput{line: n, text: sc.Text()}) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("the line is longer than %d MiB; batch stops reading here", batchMaxLine>>20)
		} else {
			err = fmt.Errorf("reading stdin: %w", err)
		}
		send(batchInput{line: n + 1, err: err})
	}
}

// runBatchJob runs one request; arguments are validated by the engine as
// for call, read and prompt.
func runBatchJob(ctx context.Context, eng *engine.Engine, server string, j *batchJob) {
	var what string
	var err error
	switch j.req.kind {
	case batchTool:
		what = fmt.Sprintf("call %s on %s", j.req.name, server)
		var res engine.ToolResult
		res, err = eng.CallTool(ctx, server, j.req.name, j.req.args, nil)
		if err == nil {
			j.result = res
			if res.IsError {
				j.err = fmt.Errorf("tool %s on %s reported an error", j.req.name, server)
			}
			return
		}
	case batchRead:
		what = fmt.Sprintf("read %s from %s", j.req.name, server)
		var res engine.ResourceResult
		if res, err = eng.ReadResource(ctx, server, j.req.name); err == nil {
			j.result = res
			return
		}
	case batchPrompt:
		what = fmt.Sprintf("get prompt %s from %s", j.req.name, server)
		var res engine.PromptResult
		if res, err = eng.GetPrompt(ctx, server, j.req.name, cliargs.PromptArgs(j.req.args)); err == nil {
			j.result = res
			return
		}
	}
	var ce *engine.CallError
	switch {
	case errors.Is(err, context.Canceled):
		j.err = fmt.Errorf("%s: cancelled", what)
	case errors.As(err, &ce):
		j.err = err // it already names the request and the server
	default:
		j.err = fmt.Errorf("%s: %w", what, err)
	}
	j.err = clinames.UnknownItemHint(j.err, serverOf(eng, server), itemKind(j.req.kind), j.req.name)
}

// itemKind is the item a kind of request names, for its did-you-mean.
func itemKind(kind string) string {
	switch kind {
	case batchTool:
		return clinames.ItemTool
	case batchPrompt:
		return clinames.ItemPrompt
	}
	return clinames.ItemResource
}

// serverOf is server's snapshot, for the names it lists.
func serverOf(eng *engine.Engine, server string) engine.ServerSnapshot {
	for _, srv := range eng.Snapshot().Servers {
		if srv.Name == server {
			return srv
		}
	}
	return engine.ServerSnapshot{}
}
