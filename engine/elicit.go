package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ElicitFunc answers a server's elicitation request.
type ElicitFunc func(ctx context.Context, req ElicitRequest) (ElicitResponse, error)

// Elicitation actions.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitPolicy returns the headless answer for the CLI flag
// --elicit accept-defaults|decline|cancel. accept-defaults fills every
// property that has a default; if a required property has none it declines
// and says which. URL mode cannot be answered without a person and is
// declined by accept-defaults.
func ElicitPolicy(mode string) (ElicitFunc, error) {
	switch mode {
	case "decline":
		return func(context.Context, ElicitRequest) (ElicitResponse, error) {
			return ElicitResponse{Action: ElicitDecline, Reason: "declined by --elicit decline"}, nil
		}, nil
	case "cancel":
		return func(context.Context, ElicitRequest) (ElicitResponse, error) {
			return ElicitResponse{Action: ElicitCancel, Reason: "cancelled by --elicit cancel"}, nil
		}, nil
	case "accept-defaults":
		return acceptDefaults, nil
	default:
		return nil, fmt.Errorf("unknown --elicit mode %q: use accept-defaults, decline or cancel", mode)
	}
}

// acceptDefaults builds content from the requested schema's defaults.
func acceptDefaults(_ context.Context, req ElicitRequest) (ElicitResponse, error) {
	if req.Mode == "url" {
		return ElicitResponse{Action: ElicitDecline, Reason: fmt.Sprintf(
			"server %s asks you to open %s; URL elicitation needs the TUI (run mcpdeck without --elicit)", req.Server, req.URL)}, nil
	}
	var schema struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if len(req.Schema) > 0 {
		if err := json.Unmarshal(req.Schema, &schema); err != nil {
			return ElicitResponse{Action: ElicitDecline, Reason: fmt.Sprintf(
				"server %s sent an elicitation schema that is not a JSON object: %v", req.Server, err)}, nil
		}
	}
	content := map[string]any{}
	for name, p := range schema.Properties {
		if len(p.Default) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(p.Default, &v); err == nil {
			content[name] = v
		}
	}
	var missing []string
	for _, r := range schema.Required {
		if _, ok := content[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		have := "which have no default"
		if len(missing) == 1 {
			have = "which has no default"
		}
		return ElicitResponse{Action: ElicitDecline, Reason: fmt.Sprintf(
			"server %s asks for %s, %s; --elicit accept-defaults can only fill defaults (answer at a terminal without --elicit, or in the TUI)",
			req.Server, strings.Join(missing, ", "), have)}, nil
	}
	return ElicitResponse{Action: ElicitAccept, Content: content}, nil
}
