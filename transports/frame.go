package transports

import (
	"encoding/json"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Direction says which way a frame went.
type Direction string

// The two directions of a frame.
const (
	Sent     Direction = "sent"     // mcpdeck to the server
	Received Direction = "received" // the server to mcpdeck
)

// FrameKind is what a JSON-RPC message is.
type FrameKind string

// The kinds of JSON-RPC message.
const (
	KindRequest      FrameKind = "request"
	KindResponse     FrameKind = "response"
	KindNotification FrameKind = "notification"
	KindError        FrameKind = "error" // a response carrying a JSON-RPC error
)

// MaxFrameBody bounds the body a frame keeps: the start of a longer
// message is kept and the frame marked Cut.
const MaxFrameBody = 64 << 10

// frameMargin is how much more than MaxFrameBody is read before masking
// secrets, so that a secret straddling the cut is masked whole before the
// body is cut (secrets longer than this are covered by their own length).
const frameMargin = 8 << 10

// Frame is one JSON-RPC message between mcpdeck and a server, as the
// transport passed it: the JSON-RPC body only, never HTTP headers.
type Frame struct {
	At     time.Time
	Dir    Direction
	Kind   FrameKind
	Method string // a request's or notification's method; a response's request's
	// ID is the request id as JSON ("7", `"a-1"`); "" for a notification.
	ID string
	// Duration is, for a response, the time since its request was sent
	// (or, for an answer mcpdeck gave, since the server's request arrived).
	Duration time.Duration
	Size     int    // bytes of the whole message
	Body     string // the message with secrets masked (textsafe.Masker), at most MaxFrameBody bytes
	Cut      bool   // Body is the start of a longer message
	Masked   int    // values masked in Body
}

// frameRecorder turns messages into Frames for Options.OnFrame, masking
// them with Options.Mask (the server's secret set and the patterns).
type frameRecorder struct {
	emit   func(Frame)
	mask   *textsafe.Masker
	window int // bytes read before masking: MaxFrameBody + margin
}

// newFrameRecorder returns nil when nobody listens: then no frame is built.
func newFrameRecorder(emit func(Frame), mask *textsafe.Masker) *frameRecorder {
	if emit == nil {
		return nil
	}
	return &frameRecorder{emit: emit, mask: mask, window: MaxFrameBody + max(frameMargin, mask.Longest())}
}

// idText is a request id as JSON.
func idText(id mcp.RequestId) string {
	if id.IsNil() {
		return ""
	}
	b, err := id.MarshalJSON()
	if err != nil {
		return ""
	}
	return string(b)
}

// message records a request or notification (anything json.Marshal takes).
func (r *frameRecorder) message(at time.Time, dir Direction, kind FrameKind, method, id string, v any) {
	if r == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	r.record(Frame{At: at, Dir: dir, Kind: kind, Method: method, ID: id}, b[:min(len(b), r.window)], len(b))
}

// response records resp, the answer to a request of method sent d ago. A
// result is not encoded again (it may be tens of megabytes): the envelope
// is written around the start of its raw bytes.
func (r *frameRecorder) response(dir Direction, method string, resp *transport.JSONRPCResponse, d time.Duration) {
	if r == nil {
		return
	}
	f := Frame{At: time.Now(), Dir: dir, Kind: KindResponse, Method: method, ID: idText(resp.ID), Duration: d}
	if resp.Error != nil || resp.Result == nil {
		if resp.Error != nil {
			f.Kind = KindError
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return
		}
		r.record(f, b[:min(len(b), r.window)], len(b))
		return
	}
	id := f.ID
	if id == "" {
		id = "null"
	}
	head := `{"jsonrpc":"2.0","id":` + id + `,"result":`
	size := len(head) + len(resp.Result) + 1
	b := make([]byte, 0, min(size, r.window))
	b = append(b, head...)
	b = append(b, resp.Result[:min(len(resp.Result), r.window-len(b))]...)
	if len(b) < r.window {
		b = append(b, '}')
	}
	r.record(f, b, size)
}

// record masks window (the first bytes of a size-byte message), cuts it to
// MaxFrameBody and hands the frame on.
func (r *frameRecorder) record(f Frame, window []byte, size int) {
	body, masked := r.mask.Dump(string(window))
	f.Size, f.Masked = size, masked
	f.Cut = size > len(window) || len(body) > MaxFrameBody
	f.Body = truncateUTF8(body, MaxFrameBody)
	r.emit(f)
}
