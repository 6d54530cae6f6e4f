package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// errSamplingNotUser refuses a sampling command defined outside the user
// config: a command that writes a model's replies is the person's to choose.
var errSamplingNotUser = errors.New(`only your user config (settings.json in mcpdeck's config directory) may set "sampling": {"command": …}; this one is ignored`)

// SamplingCommand returns the command configured to answer s's sampling
// requests ("sampling": {"command": "…"} in its definition), "" when there is
// none. Only a user-scope definition counts; elsewhere the key is an
// errSamplingNotUser, and a malformed value an ErrInvalid naming the field.
func SamplingCommand(s model.Server) (string, error) {
	raw, ok := s.Raw.Extra["sampling"]
	if !ok {
		return "", nil
	}
	var v struct {
		Command *string `json:"command"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Command == nil {
		return "", fmt.Errorf(`%w: server %s, field sampling: want {"command": "…"}`, model.ErrInvalid, s.Name)
	}
	if s.Scope != model.ScopeUser {
		return "", fmt.Errorf("server %s (%s scope): %w", s.Name, s.Scope, errSamplingNotUser)
	}
	return strings.TrimSpace(*v.Command), nil
}
