package transports

import "testing"

func TestStderrReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		tail []string
		want string
	}{
		{"message then an object", []string{"Error: API_KEY is required", "{", `  "code": 7,`, `  "hint": "set it"`, "}"}, "Error: API_KEY is required"},
		{"python traceback", []string{"Traceback (most recent call last):", `  File "srv.py", line 1, in <module>`, "    import foo", "ModuleNotFoundError: No module named 'foo'"}, "ModuleNotFoundError: No module named 'foo'"},
		{"node stack", []string{"node:internal/modules/cjs/loader:1145", "Error: Cannot find module 'x'", "    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)", "}"}, "Error: Cannot find module 'x'"},
		{"no error word: the last line with letters", []string{"", "starting up", "shutting down now", "]"}, "shutting down now"},
		{"nothing", []string{"", "  ", "}"}, ""},
		{"nil", nil, ""},
	} {
		if got := stderrReason(tc.tail); got != tc.want {
			t.Errorf("%s: stderrReason = %q, want %q", tc.name, got, tc.want)
		}
	}
}
