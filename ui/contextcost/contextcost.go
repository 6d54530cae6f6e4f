// Package contextcost counts what servers' tool definitions cost in a
// model's context: every turn sends each enabled tool's name, description
// and input schema. Counting uses OpenAI's o200k tokenizer, embedded so it
// works offline; other models' tokenizers differ, so counts are estimates
// for them (Note says so).
package contextcost

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/pkoukk/tiktoken-go"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Limits above which a server, and all servers together, are marked.
const (
	ServerLimit = 10000
	TotalLimit  = 25000
)

// Encoding names the tokenizer; Note is the sentence every report carries.
const (
	Encoding = "o200k_base"
	Note     = "counted with the o200k tokenizer (OpenAI GPT-4o); other models' tokenizers differ, so take these as estimates for them"
)

// Tool is a tool definition as a server sent it (description not capped).
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// ToolCost is one tool's tokens.
type ToolCost struct {
	Server string `json:"server"`
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
}

// ServerCost is a server's tokens, its tools largest first.
type ServerCost struct {
	Server string     `json:"server"`
	Tokens int        `json:"tokens"`
	Over   bool       `json:"over,omitempty"` // above ServerLimit
	Tools  []ToolCost `json:"tools"`
}

// Counter tokenizes. The encoding is loaded on first use (about 0.2 s and
// 30 MB, so only when a count is asked for) and let go by Release: a TUI
// at rest keeps only the counts. Its methods may be called at once from
// several goroutines.
type Counter struct {
	mu    sync.Mutex
	enc   *tiktoken.Tiktoken
	holds int // Hold calls not yet ended
}

// encoding is the loaded encoding, loading it when there is none.
func (c *Counter) encoding() (enc *tiktoken.Tiktoken, err error) {
	lock.With(&c.mu, func() {
		if c.enc == nil {
			if c.enc, err = loadO200k(); err != nil {
				err = fmt.Errorf("loading the %s tokenizer: %w", Encoding, err)
				return
			}
		}
		enc = c.enc
	})
	return enc, err
}

// Hold keeps the encoding through a run of counts (Release waits for
// their end instead of dropping it between two of them); the returned
// function ends the hold.
func (c *Counter) Hold() (end func()) {
	lock.With(&c.mu, func() { c.holds++ })
	return sync.OnceFunc(func() { lock.With(&c.mu, func() { c.holds-- }) })
}

// Release lets go of the encoding unless a Hold is running, and reports
// whether it did: the memory is the garbage collector's (and the
// system's, once the caller runs debug.FreeOSMemory). A later count loads
// it again.
func (c *Counter) Release() (released bool) {
	lock.With(&c.mu, func() {
		if c.enc != nil && c.holds == 0 {
			c.enc, released = nil, true
		}
	})
	return released
}

// Count is the number of tokens of text.
func (c *Counter) Count(text string) (int, error) {
	enc, err := c.encoding()
	if err != nil {
		return 0, err
	}
	return len(enc.EncodeOrdinary(text)), nil
}

// wireTool is a tool definition the way agents hand it to a model.
type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// ToolTokens counts one definition as sent: its JSON with name,
// description and input schema.
func (c *Counter) ToolTokens(t Tool) (int, error) {
	w := wireTool{Name: t.Name, Description: t.Description}
	if json.Valid(t.InputSchema) {
		w.InputSchema = t.InputSchema
	}
	b, err := json.Marshal(w)
	if err != nil {
		return 0, err
	}
	return c.Count(string(b))
}

// Server counts a server's tools.
func (c *Counter) Server(server string, tools []Tool) (ServerCost, error) {
	s := ServerCost{Server: server, Tools: make([]ToolCost, 0, len(tools))}
	for _, t := range tools {
		n, err := c.ToolTokens(t)
		if err != nil {
			return ServerCost{}, err
		}
		s.Tokens += n
		s.Tools = append(s.Tools, ToolCost{Server: server, Name: t.Name, Tokens: n})
	}
	slices.SortStableFunc(s.Tools, func(a, b ToolCost) int { return b.Tokens - a.Tokens })
	s.Over = s.Tokens > ServerLimit
	return s, nil
}

// ToDisable is the fewest tools of s, largest first, whose removal brings
// it to at most limit tokens (none when it already is).
func ToDisable(s ServerCost, limit int) []ToolCost {
	var out []ToolCost
	left := s.Tokens
	for _, t := range s.Tools {
		if left <= limit {
			break
		}
		out = append(out, t)
		left -= t.Tokens
	}
	return out
}

// Largest is the n largest tools of all servers.
func Largest(servers []ServerCost, n int) []ToolCost {
	var all []ToolCost
	for _, s := range servers {
		all = append(all, s.Tools...)
	}
	slices.SortStableFunc(all, func(a, b ToolCost) int { return b.Tokens - a.Tokens })
	return all[:min(n, len(all))]
}
