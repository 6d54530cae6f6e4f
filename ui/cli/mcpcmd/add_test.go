package mcpcmd

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

func TestParseEnvAndHeaders(t *testing.T) {
	t.Parallel()
	env, err := parseEnv([]string{"A=1", "B=x=y", "EMPTY="})
	if err != nil || !reflect.DeepEqual(env, map[string]string{"A": "1", "B": "x=y", "EMPTY": ""}) {
		t.Errorf("parseEnv = %v, %v", env, err)
	}
	for _, bad := range []string{"NOEQ", "=v", "A B=1"} {
		if _, err := parseEnv([]string{bad}); !isUsage(err) {
			t.Errorf("parseEnv(%q) = %v, want a usage error", bad, err)
		}
	}
	h, err := parseHeaders([]string{"Authorization: Bearer ${T}", "X-A:b", "X-Url: https://x:1/"})
	want := map[string]string{"Authorization": "Bearer ${T}", "X-A": "b", "X-Url": "https://x:1/"}
	if err != nil || !reflect.DeepEqual(h, want) {
		t.Errorf("parseHeaders = %v, %v", h, err)
	}
	for _, bad := range []string{"no colon", ": v", "Two Words: v"} {
		if _, err := parseHeaders([]string{bad}); !isUsage(err) {
			t.Errorf("parseHeaders(%q) = %v, want a usage error", bad, err)
		}
	}
}

func isUsage(err error) bool {
	var ue *clierr.UsageError
	return errors.As(err, &ue)
}
