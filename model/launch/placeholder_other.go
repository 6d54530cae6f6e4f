//go:build !linux

package launch

import "github.com/mcpdeck/mcpdeck/model/sandbox"

// placeholders are needed by bubblewrap only: sandbox-exec's profile
// denies creating a path by its name (sandbox.Profile.Placeholders).
type placeholders struct{}

func holdPlaceholders([]sandbox.Placeholder) (*placeholders, error) { return &placeholders{}, nil }

func (*placeholders) release() {}
