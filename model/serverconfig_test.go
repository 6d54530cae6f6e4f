package model

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

func TestServerConfigUnmarshalStrict(t *testing.T) {
	for _, tc := range []struct {
		in, field, msg string
	}{
		{`{"command":"x","args":"-y pkg"}`, "args", "must be an array of strings, got string"},
		{`{"command":"x","args":["-y",3]}`, "args[1]", "must be a string, got number"},
		{`{"command":42}`, "command", "must be a string, got number"},
		{`{"command":"x","env":{"A":1}}`, "env.A", "must be a string, got number"},
		{`{"command":"x","env":["A=1"]}`, "env", "must be an object of strings, got array"},
		{`{"url":"u","headers":{"A":true}}`, "headers.A", "must be a string, got boolean"},
		{`{"url":"u","oauth":{"callbackPort":"8080"}}`, "oauth.callbackPort", "must be a port number, got string"},
		{`{"url":"u","oauth":{"callbackPort":70000}}`, "oauth.callbackPort", "must be a port number between 0 and 65535"},
		{`{"url":"u","oauth":{"callbackPort":80.5}}`, "oauth.callbackPort", "must be a port number between 0 and 65535"},
		{`{"url":"u","oauth":{"scopes":"a b"}}`, "oauth.scopes", "must be an array of strings, got string"},
		{`{"url":"u","oauth":[]}`, "oauth", "must be an object, got array"},
		{`{"command":"x","command":"y"}`, "command", `duplicate key "command"`},
		{`{"command":"x","env":{"A":"1","A":"2"}}`, "env.A", `duplicate key "A"`},
		{`["x"]`, "", "must be an object, got array"},
	} {
		wantFieldError(t, tc.in, tc.field, tc.msg)
	}
}

// wantFieldError checks that decoding in fails with msg at field.
func wantFieldError(t *testing.T, in, field, msg string) {
	t.Helper()
	var c ServerConfig
	err := json.Unmarshal([]byte(in), &c)
	var fe *jsondoc.FieldError
	if !errors.As(err, &fe) {
		t.Errorf("%s: want a field error, got %v", in, err)
		return
	}
	if fe.Field != field || fe.Msg != msg {
		t.Errorf("%s: got field %q msg %q, want %q %q", in, fe.Field, fe.Msg, field, msg)
	}
}

func TestServerConfigRoundTripKeepsUnknownFields(t *testing.T) {
	in := `{"type":"http","url":"https://e.com/mcp?a=1&b=2","headers":{"X":"y"},` +
		`"timeout":30,"x-vendor":{"nested":[1,"two",null]},` +
		`"oauth":{"clientId":"app","callbackPort":8080,"scopes":["read"],"audience":"api"},"args":null}`
	var c ServerConfig
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if c.Type != TransportHTTP || c.OAuth.CallbackPort != 8080 || c.Args != nil {
		t.Fatalf("decoded wrong: %+v", c)
	}
	if string(c.Extra["timeout"]) != "30" || string(c.OAuth.Extra["audience"]) != `"api"` {
		t.Fatalf("unknown fields lost: %v %v", c.Extra, c.OAuth.Extra)
	}
	out, err := jsondoc.MarshalNoEscape(c) // what config writes use
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "a=1&b=2") {
		t.Errorf("URL was HTML-escaped in a file write: %s", out)
	}
	var back ServerConfig
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if ConfigHash(back) != ConfigHash(c) || !reflect.DeepEqual(back.OAuth.Scopes, c.OAuth.Scopes) {
		t.Errorf("round trip changed the definition:\n%s", Diff(c, back))
	}
	// Known fields come first, in the documented order, then extras sorted.
	wantOrder := []string{`"type"`, `"url"`, `"headers"`, `"oauth"`, `"timeout"`, `"x-vendor"`}
	last := -1
	for _, k := range wantOrder {
		i := strings.Index(string(out), k)
		if i < last {
			t.Errorf("key %s out of order in %s", k, out)
		}
		last = i
	}
}

func TestServerConfigMarshalOmitsEmpty(t *testing.T) {
	out, err := json.Marshal(ServerConfig{Command: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"command":"echo"}` {
		t.Errorf("got %s", out)
	}
}
