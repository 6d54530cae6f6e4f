package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// maxRequestBody bounds one request from the agent.
const maxRequestBody = 32 << 20

// HTTPOptions secure the HTTP listener.
type HTTPOptions struct {
	// Token is what every MCP request must carry: as
	// "Authorization: Bearer TOKEN" on /mcp, or as the last segment of
	// the capability URL /mcp/TOKEN (CapabilityPath).
	Token string
	// Remote says --listen allowed an address other machines can reach;
	// Host is the --http host, then accepted in Host and Origin headers.
	Remote bool
	Host   string
	// Debug serves GET /debug/runtime behind the token (DebugEnv).
	Debug bool
}

// streamable is the MCP side of the listener; what it logs goes to the
// person's log with the token masked (logw).
func (g *Gateway) streamable(logw io.Writer) *server.StreamableHTTPServer {
	return server.NewStreamableHTTPServer(g.srv,
		server.WithStateful(true),
		// Host and Origin are checked once, in handler, with --listen in mind.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		// A call waiting for answers is continued only with the token it began with.
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			d := sha256.Sum256([]byte(presented(r)))
			return context.WithValue(ctx, agentKey{}, hex.EncodeToString(d[:]))
		}),
	)
}

// handler serves /mcp (mcpH: streamable HTTP, bearer token required), the
// capability URL /mcp/TOKEN (the token in the path instead), /health
// (no token, no secrets) and, with h.Debug, /debug/runtime (token
// required), refusing with 403 any request whose Host or Origin is not
// this machine (DNS rebinding).
func (g *Gateway) handler(h HTTPOptions, mcpH http.Handler) http.Handler {
	want := sha256.Sum256([]byte(h.Token))
	authed := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			got := sha256.Sum256([]byte(presented(r)))
			if h.Token == "" || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mcpdeck serve"`)
				http.Error(w, "mcpdeck serve needs its token (MCPDECK_SERVE_TOKEN, or the one it stored and printed): Authorization: Bearer TOKEN on /mcp, or the URL /mcp/TOKEN", http.StatusUnauthorized)
				return
			}
			next(w, r)
		}
	}
	mcp := authed(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		mcpH.ServeHTTP(w, r)
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", g.health)
	mux.HandleFunc("/mcp", mcp)
	mux.HandleFunc(capabilityPattern, mcp)
	if h.Debug {
		mux.HandleFunc("GET /debug/runtime", authed(runtimeStats))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.hostAllowed(r.Host) || !h.originAllowed(r.Header.Get("Origin")) {
			http.Error(w, "mcpdeck serve answers only requests to this machine (Host and Origin must be localhost)", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// bearer is the token of an "Authorization: Bearer TOKEN" header, or "".
// On the capability URL, the path's token counts instead (presented).
func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// health says the gateway runs and how many servers it offers: counts
// only, no names.
func (g *Gateway) health(w http.ResponseWriter, _ *http.Request) {
	g.mu.Lock()
	offered, connected := 0, 0
	for i := range g.snap.Servers {
		s := &g.snap.Servers[i]
		if g.f.exposes(s) {
			offered++
			if s.State == model.StateConnected {
				connected++
			}
		}
	}
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"status": "ok", "servers": offered, "connected": connected})
}

// ServeHTTP serves /mcp and /health (see handler) on ln until ctx is done, then closes the agents'
// sessions and stops within about two seconds.
func (g *Gateway) ServeHTTP(ctx context.Context, ln net.Listener, h HTTPOptions) error {
	logw := h.logWriter(g.log)
	st := g.streamable(logw)
	hs := &http.Server{
		Handler: g.handler(h, g.httpFront(inorder.HTTP(st))), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(logw, "mcpdeck serve: ", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st.CloseSessions(sctx)
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
