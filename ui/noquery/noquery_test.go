package noquery

import "testing"

func TestHideSetsOnlyWhatWasUnset(t *testing.T) {
	env := map[string]string{}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	set := func(k, v string) error { env[k] = v; return nil }
	if !hide(lookup, set) || env[ciVar] != "1" {
		t.Fatalf("CI unset: hide did not set it: %v", env)
	}
	env[ciVar] = "true"
	if hide(lookup, set) || env[ciVar] != "true" {
		t.Fatalf("CI already set: hide changed it or claimed it: %v", env)
	}
}
