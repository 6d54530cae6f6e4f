package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// SamplingDecision is what the person decided about a server's sampling
// requests (sampling/createMessage) for good. It is kept in the project's
// private state under "samplingDecisions" ({"name": "always"|"never"}), never
// in a file of the working tree: a repository cannot let its servers sample.
type SamplingDecision string

// Sampling decisions. The zero value asks the person every time.
const (
	SamplingAsk    SamplingDecision = ""
	SamplingAlways SamplingDecision = "always"
	SamplingNever  SamplingDecision = "never"
)

const keySampling = "samplingDecisions"

// ErrSamplingNotUser refuses a sampling command defined outside the user
// config: a command that writes a model's replies is the person's to choose.
var ErrSamplingNotUser = errors.New(`only your user config (settings.json in mcpdeck's config directory) may set "sampling": {"command": …}; this one is ignored`)

// SamplingCommand returns the command configured to answer s's sampling
// requests ("sampling": {"command": "…"} in its definition), "" when there is
// none. Only a user-scope definition counts; elsewhere the key is an
// ErrSamplingNotUser, and a malformed value an ErrInvalid naming the field.
func SamplingCommand(s Server) (string, error) {
	raw, ok := s.Raw.Extra["sampling"]
	if !ok {
		return "", nil
	}
	var v struct {
		Command *string `json:"command"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Command == nil {
		return "", fmt.Errorf(`%w: server %s, field sampling: want {"command": "…"}`, ErrInvalid, s.Name)
	}
	if s.Scope != ScopeUser {
		return "", fmt.Errorf("server %s (%s scope): %w", s.Name, s.Scope, ErrSamplingNotUser)
	}
	return strings.TrimSpace(*v.Command), nil
}

// readSamplingDecisions reads "samplingDecisions" by normalized server name;
// a value other than "always" or "never" is a problem naming it and is
// ignored (the person is asked).
func readSamplingDecisions(f *jsonFile, probs []Problem) (map[string]SamplingDecision, []Problem) {
	n := f.root.Get(keySampling)
	if n == nil || n.Kind == 'z' {
		return nil, probs
	}
	if n.Kind != '{' {
		return nil, append(probs, f.problemAt("", jsondoc.Want(n, keySampling, "an object")))
	}
	out := map[string]SamplingDecision{}
	for _, m := range n.Members {
		field := keySampling + "." + m.Key
		d := SamplingDecision(m.Val.Str)
		if m.Val.Kind != 's' || (d != SamplingAlways && d != SamplingNever) {
			probs = append(probs, f.problemAt("", jsondoc.Want(m.Val, field, `"always" or "never"`)))
			continue
		}
		out[NormalizeName(m.Key)] = d
	}
	return out, probs
}

// SetSamplingDecision records in the project's private state whether server
// name's sampling requests are always answered or never; SamplingAsk forgets
// the decision. An unknown name is ErrNotFound.
func SetSamplingDecision(opts LoadOptions, name string, d SamplingDecision) error {
	switch d {
	case SamplingAsk, SamplingAlways, SamplingNever:
	default:
		return fmt.Errorf("%w: sampling decision %q", ErrInvalid, d)
	}
	r, err := Load(opts)
	if err != nil {
		return err
	}
	s, ok := r.Server(name)
	if !ok {
		return fmt.Errorf("%w: no server named %s", ErrNotFound, name)
	}
	return setSamplingDecision(r.LocalSettings, r.ProjectRoot, s.Name, d)
}

// setSamplingDecision records d for the server name in the private state
// file of the project at root; SamplingAsk forgets the decision.
func setSamplingDecision(file, root, name string, d SamplingDecision) error {
	return editLocal(file, root, func(f *jsonFile) ([]byte, error) {
		if d == SamplingAsk {
			out, _, err := deleteMember(f.doc, []string{keySampling, name})
			return out, err
		}
		return setMember(f.doc, []string{keySampling, name}, string(d))
	})
}
