package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// callbackResult is what the one callback delivered.
type callbackResult struct {
	Code string
	Iss  string
	Err  error
}

// callbackServer is the loopback redirect target: 127.0.0.1 only, state
// checked before anything is believed. A callback with the wrong state (or
// none) gets an error page and is otherwise ignored, so a forged one cannot
// end the person's sign-in; the first callback with our state, code or
// error, is the one answer.
type callbackServer struct {
	ln          net.Listener
	srv         *http.Server
	redirectURI string
	state       string
	result      chan callbackResult
	once        sync.Once
	served      chan struct{}
	// ignored counts callbacks whose state was not ours.
	ignored atomic.Int32
}

// listenCallback binds 127.0.0.1 on port (0 = a free one) for a flow whose
// state is already chosen: a callback that arrives before the browser was
// sent anywhere (a port scan, a forgery racing the registration) must meet
// the real state, never an unset one.
func listenCallback(ctx context.Context, port int, state string) (*callbackServer, error) {
	if state == "" {
		return nil, errors.New("internal error: the OAuth callback needs a state")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		if platform.IsErrno(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("%w: port %d on 127.0.0.1 is taken by another program; free it or set a different oauth.callbackPort", ErrPortBusy, port)
		}
		return nil, fmt.Errorf("cannot listen for the OAuth callback on 127.0.0.1:%d: %w", port, err)
	}
	cs := &callbackServer{
		ln:          ln,
		redirectURI: fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port),
		state:       state,
		result:      make(chan callbackResult, 1),
		served:      make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", cs.handle)
	cs.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return cs, nil
}

// serve runs the server until close.
func (cs *callbackServer) serve() {
	defer close(cs.served)
	_ = cs.srv.Serve(cs.ln)
}

func (cs *callbackServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := cs.srv.Shutdown(ctx); err != nil {
		_ = cs.srv.Close()
	}
	<-cs.served
}

func (cs *callbackServer) handle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(cs.state)) != 1 {
		// Not an answer to our request: nothing in it (code, error,
		// error_description, iss) is believed, and the sign-in goes on.
		cs.ignored.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		writePage(w, "Not the sign-in in progress",
			"This callback does not carry the state of the sign-in mcpdeck started, so it was ignored. "+
				"If you are signing in, finish it in the page mcpdeck opened.")
		return
	}
	var res callbackResult
	switch {
	case q.Get("error") != "":
		res.Err = &OAuthError{Op: "authorization", Status: http.StatusFound, Code: serverText(q.Get("error")), Description: serverText(q.Get("error_description"))}
	case q.Get("code") == "":
		res.Err = errors.New("the authorization callback carried no code")
	default:
		res.Code, res.Iss = q.Get("code"), q.Get("iss")
	}
	first := false
	cs.once.Do(func() {
		first = true
		cs.result <- res
	})
	switch {
	case !first:
		w.WriteHeader(http.StatusGone)
		writePage(w, "Already handled", "This authorization was already completed or rejected. You can close this tab.")
	case res.Err != nil:
		w.WriteHeader(http.StatusBadRequest)
		writePage(w, "Authorization failed", res.Err.Error()+" Return to mcpdeck for details.")
	default:
		writePage(w, "mcpdeck is authorized", "You can close this tab and return to the terminal.")
	}
}

func writePage(w http.ResponseWriter, title, msg string) {
	fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>%s</title>
<style>body{font-family:system-ui,sans-serif;max-width:32em;margin:4em auto;color:#222}h1{font-size:1.4em}</style>
</head><body><h1>%s</h1><p>%s</p></body></html>`, html.EscapeString(title), html.EscapeString(title), html.EscapeString(msg))
}
