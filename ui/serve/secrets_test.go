package serve

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// TestErrorsToTheAgentMaskTheServersSecrets: a remote server whose URL
// path holds a key (${KEY}) connects, then its endpoint starts answering
// 404: the agent's next calls fail, and neither their errors nor what
// serve tells the person quote the key, though the failures name the
// URL.
func TestErrorsToTheAgentMaskTheServersSecrets(t *testing.T) {
	const key = "serve-path-key-8a3f1c"
	remote, _ := faultlaunch.Start(t, faultBin, "-http", "-path", "/api/"+key+"/mcp", "-stateless")
	target, err := url.Parse(remote)
	if err != nil {
		t.Fatal(err)
	}
	var broken atomic.Bool
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: target.Host})
	proxy.FlushInterval = -1
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.NotFound(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	r := newRig(t, map[string]any{"api": map[string]any{"type": "http", "url": front.URL + "/api/${KEY}/mcp"}}, Options{},
		func(o *engine.Options) {
			o.Load.LookupEnv = func(k string) (string, bool) {
				if k == "KEY" {
					return key, true
				}
				return os.LookupEnv(k)
			}
		})
	a := r.httpAgent()
	if got, isErr := a.call(t, "api__echo", map[string]any{"text": "hi"}); isErr || got != "hi" {
		t.Fatalf("api__echo = %q (error %v)", got, isErr)
	}
	broken.Store(true)
	var said strings.Builder
	call := func() {
		got, isErr := a.call(t, "api__echo", map[string]any{"text": "hi"})
		said.WriteString(got + "\n")
		if !isErr {
			t.Fatalf("api__echo after the endpoint went = %q, want an error", got)
		}
	}
	call() // fails, or finds the server reconnecting
	r.waitFor("the 404 to be the server's error", func(g *Gateway) bool {
		for _, s := range g.lists.lastSnapshot().Servers {
			if s.Name == "api" {
				return s.State != model.StateConnected && strings.Contains(s.Error, "404")
			}
		}
		return false
	})
	call() // told the server's state and why
	if strings.Contains(said.String()+r.log.String(), key) || !strings.Contains(said.String(), "/api/****/mcp") {
		t.Errorf("the agent was told:\n%sthe person:\n%s", said.String(), r.log)
	}
}
