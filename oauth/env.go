package oauth

import (
	"encoding/json"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

// env is Options.LookupEnv: the environment variables that stand in for
// secrets the store lacks (MCPDECK_CLIENT_SECRET, …) and fill the ${VAR}s
// of oauth.Extra settings. nil is an empty environment.
type env func(string) (string, bool)

// get is the variable's value, "" when unset.
func (e env) get(name string) string {
	if e == nil {
		return ""
	}
	v, _ := e(name)
	return v
}

// extra reads a string setting of OAuthConfig.Extra ("" when absent) with
// ${VAR} and ${VAR:-default} expanded, as the model expands the named
// fields (it leaves Extra alone: it does not know what the keys mean). An
// unset variable is a configuration error.
func (e env) extra(oc model.OAuthConfig, key string) (string, error) {
	raw, ok := oc.Extra[key]
	if !ok {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%w: oauth.%s must be a string", ErrConfig, key)
	}
	lookup := e
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	v, missing := model.Expand(s, lookup)
	if len(missing) > 0 {
		return "", fmt.Errorf("%w: oauth.%s: %s is not set", ErrConfig, key, missing[0])
	}
	return v, nil
}
