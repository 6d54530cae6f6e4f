package transports

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// sseRequests lets the legacy SSE transport answer server→client requests
// (elicitation, sampling, roots, ping), which mcp-go's SSE client drops. It
// sits in front of the HTTP client's transport and rewrites the GET event
// stream: every "message" event that is a request (a method and an id) is
// taken out — so mcp-go never takes it for the answer to its own request of
// the same id — and handed to the client's request handler; the answer is
// POSTed to the session's endpoint like any message of ours. Everything
// else passes through byte for byte.
type sseRequests struct {
	next http.RoundTripper
	ctx  context.Context // the connection's life: handlers run under it

	answers answering // the server's requests being answered

	mu       sync.Mutex
	handler  transport.RequestHandler
	endpoint func() string // the session's POST URL, "" before the endpoint event
	client   *http.Client  // posts the answers (through next)
}

// SetRequestHandler installs the client's handler of server requests.
func (s *sseRequests) SetRequestHandler(h transport.RequestHandler) {
	lock.With(&s.mu, func() { s.handler = h })
}

// RoundTrip filters the event stream of a GET; other requests pass.
func (s *sseRequests) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, err
	}
	pr, pw := io.Pipe()
	body := resp.Body
	go func() { pw.CloseWithError(s.filter(body, pw)) }()
	resp.Body = &filteredBody{PipeReader: pr, src: body}
	return resp, nil
}

// filteredBody closes the pipe and the real body together.
type filteredBody struct {
	*io.PipeReader
	src io.Closer
}

func (b *filteredBody) Close() error {
	_ = b.PipeReader.Close()
	return b.src.Close()
}

// filter copies events from src to w, keeping back and dispatching server
// requests. It returns src's error (nil at its end).
func (s *sseRequests) filter(src io.Reader, w io.Writer) error {
	r := bufio.NewReader(src)
	var event []string // the raw lines of the event being read
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			event = append(event, line)
		}
		end := line == "\n" || line == "\r\n"
		if end || (err != nil && len(event) > 0) {
			if data, ok := serverRequest(event); ok {
				s.answers.run(s.ctx.Done(), func() { s.answer(data) })
			} else if _, werr := io.WriteString(w, strings.Join(event, "")); werr != nil {
				return werr
			}
			event = event[:0]
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// serverRequest returns the data of a "message" event that is a JSON-RPC
// request (it has a method and an id).
func serverRequest(lines []string) ([]byte, bool) {
	kind := "message"
	var data []string
	for _, l := range lines {
		l = strings.TrimRight(l, "\r\n")
		field, value, _ := strings.Cut(l, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			kind = value
		case "data":
			data = append(data, value)
		}
	}
	if kind != "message" || len(data) == 0 {
		return nil, false
	}
	b := []byte(strings.Join(data, "\n"))
	var probe struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(b, &probe) != nil || probe.Method == "" || len(probe.ID) == 0 || string(probe.ID) == "null" {
		return nil, false
	}
	return b, true
}

// answer runs the handler on one server request and posts its answer; an
// error from the handler becomes a JSON-RPC error answer.
func (s *sseRequests) answer(data []byte) {
	var req transport.JSONRPCRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return
	}
	var h transport.RequestHandler
	var endpoint func() string
	var hc *http.Client
	lock.With(&s.mu, func() { h, endpoint, hc = s.handler, s.endpoint, s.client })
	var resp *transport.JSONRPCResponse
	if h == nil {
		resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "no handler for "+req.Method, nil)
	} else {
		var err error
		resp, err = h(s.ctx, req)
		if err != nil || resp == nil {
			msg := "no answer"
			if err != nil {
				msg = err.Error()
			}
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, msg, nil)
		}
	}
	if endpoint == nil || hc == nil {
		return
	}
	_ = postAnswer(s.ctx, hc, endpoint(), resp)
}

// postAnswer sends one answer to the session's endpoint.
func postAnswer(ctx context.Context, hc *http.Client, endpoint string, resp *transport.JSONRPCResponse) error {
	if endpoint == "" {
		return errors.New("no endpoint yet")
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	r, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = r.Body.Close() }()
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
	if r.StatusCode >= 300 {
		return fmt.Errorf("the server refused our answer: HTTP %d", r.StatusCode)
	}
	return nil
}
