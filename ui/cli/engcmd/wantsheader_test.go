package engcmd

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestPlainBearerServerWantsAHeader: a server answering 401 with no OAuth
// to offer (mcpdeck serve --http without its token) is not sent to a
// sign-in that cannot work: call, auth and mcp list say to give it the
// token in a header.
func TestPlainBearerServerWantsAHeader(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcpdeck serve"`)
		http.Error(w, "mcpdeck serve needs its token", http.StatusUnauthorized)
	}))
	t.Cleanup(gw.Close)
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "gw", gw.URL+"/mcp")
	want := `give it the token in a header (mcpdeck mcp add NAME URL -H "Authorization: Bearer ${TOKEN}"`
	for _, args := range [][]string{{"call", "gw", "anything"}, {"auth", "gw"}, {"mcp", "list"}} {
		r := e.Run(args...)
		if r.Code == 0 || !strings.Contains(r.Stdout+r.Stderr, want) || strings.Contains(r.Stdout+r.Stderr, "oauth.clientId") {
			t.Errorf("mcpdeck %s does not say to send the token in a header:\n%s", strings.Join(args, " "), r)
		}
	}
}
