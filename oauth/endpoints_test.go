package oauth

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

func TestSecureEndpoint(t *testing.T) {
	ok := []string{
		"https://as.example/token", "HTTPS://AS.EXAMPLE/token", "https://10.0.0.1/token",
		"http://127.0.0.1:8080/token", "http://127.1.2.3/token", "http://localhost/token",
		"http://LOCALHOST:9/token", "http://localhost./token", "http://[::1]:8080/token",
	}
	for _, u := range ok {
		if err := secureEndpoint("token endpoint", u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	bad := []string{
		"http://as.example/token", "http://10.0.0.1/token", "http://localhost.evil.example/token",
		"http://127.0.0.1.nip.io/token", "http://[::2]/token", "http://0.0.0.0/token",
		"ftp://as.example/token", "ws://localhost/token", "javascript:alert(1)", "/token", "", "https:///token",
	}
	for _, u := range bad {
		err := secureEndpoint("token endpoint", u)
		var ie *InsecureEndpointError
		if !errors.Is(err, ErrInsecureEndpoint) || !errors.As(err, &ie) || ie.URL != u {
			t.Errorf("%q: got %v, want an InsecureEndpointError", u, err)
		}
	}
}

// recordingTransport lets every request through to loopback and refuses
// (and counts) any request to another host: those would leave the machine.
type recordingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	away []string
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !policy.IsLoopbackHost(r.URL.Hostname()) {
		rt.mu.Lock()
		rt.away = append(rt.away, r.Method+" "+r.URL.String())
		rt.mu.Unlock()
		return nil, errors.New("test: no network")
	}
	return rt.base.RoundTrip(r)
}

func (rt *recordingTransport) sentAway() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]string(nil), rt.away...)
}

// Metadata that names a plain-http URL on another machine, for any of the
// endpoints credentials would travel to, is refused before anything is
// sent, in one sentence naming the URL, the endpoint and the server.
func TestInsecureMetadataRefused(t *testing.T) {
	cases := []struct {
		name, role string
		setup      func(f *fakeAS)
	}{
		{"token", "token endpoint", func(f *fakeAS) {
			f.MetadataPatch = map[string]any{"token_endpoint": "http://as.example/token"}
		}},
		{"authorization", "authorization endpoint", func(f *fakeAS) {
			f.MetadataPatch = map[string]any{"authorization_endpoint": "http://as.example/authorize"}
		}},
		{"registration", "registration endpoint", func(f *fakeAS) {
			f.MetadataPatch = map[string]any{"registration_endpoint": "http://as.example/register"}
		}},
		{"revocation", "revocation endpoint", func(f *fakeAS) {
			f.MetadataPatch = map[string]any{"revocation_endpoint": "http://as.example/revoke"}
		}},
		{"issuer", "issuer", func(f *fakeAS) { // 2025-03-26: the issuer is whatever the root metadata says
			f.NoPRM = true
			f.MetadataPatch = map[string]any{"issuer": "http://as.example"}
		}},
		{"prm", "authorization server named in remote's protected-resource metadata", func(f *fakeAS) {
			f.PRMAuthServer = "http://as.example"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := &recordingTransport{}
			e := newEnv(t, func(o *Options) { rt.base = o.Transport; o.Transport = rt })
			c.setup(e.fake)
			err := e.authenticate(e.server())
			var ie *InsecureEndpointError
			if !errors.Is(err, ErrInsecureEndpoint) || !errors.As(err, &ie) {
				t.Fatalf("got %v, want ErrInsecureEndpoint", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "refusing to send credentials to http://as.example") ||
				!strings.Contains(msg, c.role) || !strings.Contains(msg, "remote") || !strings.Contains(msg, "must use https") {
				t.Errorf("message %q does not name the URL, the %s and the server", msg, c.role)
			}
			if len(e.fake.Authorizes) != 0 || e.fake.Registrations != 0 || len(e.shown) != 0 {
				t.Error("the flow went on after refusing the metadata")
			}
			if away := rt.sentAway(); len(away) != 0 {
				t.Errorf("requests left the machine: %v", away)
			}
		})
	}
}

// The same rule holds for machine grants and for a configured metadata URL.
func TestInsecureEndpointRefusedForMachineGrantAndConfiguredMetadata(t *testing.T) {
	rt := &recordingTransport{}
	e := newEnv(t, func(o *Options) { rt.base = o.Transport; o.Transport = rt })
	e.fake.PreClientID, e.fake.PreClientSecret = "machine", "secret-"+randomID()
	e.fake.MetadataPatch = map[string]any{"token_endpoint": "http://as.example/token"}
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "machine", Grant: GrantClientCredentials}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	if err := e.authenticate(srv); !errors.Is(err, ErrInsecureEndpoint) {
		t.Errorf("client_credentials: got %v, want ErrInsecureEndpoint", err)
	}
	srv.Config.OAuth = &model.OAuthConfig{AuthServerMetadataURL: "http://as.example/.well-known/oauth-authorization-server"}
	err := e.authenticate(srv)
	if !errors.Is(err, ErrInsecureEndpoint) || !strings.Contains(err.Error(), "authServerMetadataUrl") {
		t.Errorf("configured metadata URL: got %v, want ErrInsecureEndpoint naming the setting", err)
	}
	if away := rt.sentAway(); len(away) != 0 {
		t.Errorf("requests left the machine: %v", away)
	}
}

// A token endpoint that answers with a redirect does not get the request
// (here the client secret in its Authorization header, which Go would
// carry to another port of the same host) sent on to where it points.
func TestTokenEndpointRedirectNotFollowed(t *testing.T) {
	var got atomic.Value
	got.Store("")
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Store(r.Method + " " + string(b) + " " + r.Header.Get("Authorization"))
	}))
	defer elsewhere.Close()
	e := newEnv(t, func(o *Options) {
		base := o.Transport
		o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/token" && r.Method == http.MethodPost {
				return &http.Response{
					StatusCode: http.StatusFound, Request: r, Body: http.NoBody,
					Header: http.Header{"Location": {elsewhere.URL + "/steal"}},
				}, nil
			}
			return base.RoundTrip(r)
		})
	})
	e.fake.PreClientID, e.fake.PreClientSecret = "pre-client", "pre-secret-"+randomID()
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "pre-client"}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	err := e.authenticate(srv)
	if err == nil || !strings.Contains(err.Error(), "not following it") {
		t.Errorf("got %v, want a refused redirect", err)
	}
	if s := got.Load().(string); s != "" {
		t.Errorf("the token request was re-sent elsewhere: %.40s…", s)
	}
}
