package transports

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestTLSFailuresAreOneSentence: a certificate this machine does not
// trust, and HTTPS to a server that speaks plain HTTP, are each one
// sentence naming the address, without mcp-go's or net/http's wrapping.
func TestTLSFailuresAreOneSentence(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusTeapot) })
	untrusted := httptest.NewUnstartedServer(h)
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	untrusted.StartTLS()
	defer untrusted.Close()
	plain := httptest.NewServer(h)
	defer plain.Close()
	for _, tc := range []struct{ url, want string }{
		{untrusted.URL + "/mcp", "the certificate of the server at " + untrusted.Listener.Addr().String() + " is not signed by an authority this machine trusts (self-signed?)"},
		{strings.Replace(plain.URL, "http://", "https://", 1) + "/mcp", "the server at " + plain.Listener.Addr().String() + " does not speak HTTPS: is the URL http://?"},
	} {
		_, err := NewFactory().Open(t.Context(), "s", model.ServerConfig{Type: model.TransportHTTP, URL: tc.url}, Options{})
		if got := Humanize(err); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.url, got, tc.want)
		}
	}
}
