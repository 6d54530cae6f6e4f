package transports

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// testLimit is the message size limit the tests set: small, so that going
// over it costs no memory worth mentioning.
const testLimit = 64 << 10

// countingReader counts the bytes taken from r.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// shortLines is an endless stream of short lines, like a reply of 1 GB in
// lines of 40 bytes.
type shortLines struct{ prefix string }

func (s shortLines) Read(p []byte) (int, error) {
	line := s.prefix + strings.Repeat("x", 39-len(s.prefix)) + "\n"
	n := 0
	for n < len(p) {
		n += copy(p[n:], line)
	}
	return n, nil
}

// readLimited runs body (served as contentType) through limitBodies and
// reads it all. It returns the bytes taken from the server, the read error
// and what onExceeded received.
func readLimited(t *testing.T, contentType string, body io.Reader) (read int64, err, exceeded error) {
	t.Helper()
	src := &countingReader{r: body}
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(src), Header: http.Header{"Content-Type": {contentType}}, Request: r}, nil
	})
	rt := limitBodies(base, "big", testLimit, func(err error) { exceeded = err })
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://x/mcp", strings.NewReader("{}"))
	resp, rerr := rt.RoundTrip(req)
	if rerr != nil {
		t.Fatal(rerr)
	}
	defer resp.Body.Close()
	// mcp-go decodes JSON with growing buffers and reads SSE through bufio.
	_, err = io.Copy(io.Discard, bufio.NewReaderSize(resp.Body, 1<<20))
	return src.n.Load(), err, exceeded
}

// TestLimitBodiesBoundsAJSONBodyOfShortLines: a body of short lines is one
// message; it ends at the limit, having read at most limit+1 bytes.
func TestLimitBodiesBoundsAJSONBodyOfShortLines(t *testing.T) {
	read, err, exceeded := readLimited(t, "application/json", shortLines{})
	if !errors.Is(err, ErrMessageTooLarge) || !errors.Is(exceeded, ErrMessageTooLarge) {
		t.Fatalf("err = %v, reported %v", err, exceeded)
	}
	if read > testLimit+1 {
		t.Fatalf("read %d bytes from the server, limit %d", read, testLimit)
	}
	if got := Humanize(Wrap(err)); got != "server big sent a message larger than 64 KB; mcpdeck closed the connection" {
		t.Fatalf("Humanize = %q", got)
	}
	if Classify(err) != ClassTooLarge || Classify(err).String() != "too-large" {
		t.Fatalf("class %v", Classify(err))
	}
	// A body at the limit is fine.
	_, err, exceeded = readLimited(t, "application/json", io.LimitReader(shortLines{}, testLimit))
	if err != nil || exceeded != nil {
		t.Fatalf("body at the limit: %v, %v", err, exceeded)
	}
}

// TestLimitBodiesCountsEventStreamsPerEvent: a long-lived stream carries
// many events, so the limit applies to each, whatever the line endings; one
// event of many short data lines ends the stream.
func TestLimitBodiesCountsEventStreamsPerEvent(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		t.Run(fmt.Sprintf("%q", eol), func(t *testing.T) {
			event := "event: message" + eol + strings.Repeat("data: "+strings.Repeat("y", 90)+eol, 100) + eol // ~10 KB
			many := strings.Repeat(event, 4*testLimit/len(event))                                             // 4 limits in all
			read, err, exceeded := readLimited(t, "text/event-stream", strings.NewReader(many))
			if err != nil || exceeded != nil || read != int64(len(many)) {
				t.Fatalf("small events: %v, %v, read %d of %d", err, exceeded, read, len(many))
			}
			huge := io.MultiReader(strings.NewReader(many+"data: {"+eol), shortLines{prefix: "data: "})
			read, err, exceeded = readLimited(t, "text/event-stream", huge)
			if !errors.Is(err, ErrMessageTooLarge) || !errors.Is(exceeded, ErrMessageTooLarge) {
				t.Fatalf("huge event: %v, %v", err, exceeded)
			}
			if read > int64(len(many))+testLimit+1 {
				t.Fatalf("read %d bytes, %d past the small events", read, read-int64(len(many)))
			}
		})
	}
}

// TestLimitBodiesBoundsEventLines: an event of many short lines ends the
// stream long before its byte limit, since mcp-go's parser costs lines ×
// size; an event of a few lines is fine.
func TestLimitBodiesBoundsEventLines(t *testing.T) {
	few := "id: 1\nevent: message\n" + strings.Repeat("data: x\n", 50) + "\n"
	read, err, exceeded := readLimited(t, "text/event-stream", strings.NewReader(strings.Repeat(few, 40)))
	if err != nil || exceeded != nil || read != int64(40*len(few)) {
		t.Fatalf("events of 52 lines: %v, %v, read %d", err, exceeded, read)
	}
	many := "data: {\n" + strings.Repeat("data: 1\n", 2*maxEventLines) + "\n"
	_, err, _ = readLimited(t, "text/event-stream", strings.NewReader(many))
	var tl *MessageTooLargeError
	if !errors.As(err, &tl) || tl.Lines != maxEventLines {
		t.Fatalf("event of %d lines: %v", 2*maxEventLines, err)
	}
	if want := fmt.Sprintf("more than %d lines", maxEventLines); !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q", err, want)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{32 << 20: "32 MB", 64 << 10: "64 KB", 1536 << 10: "1536 KB", 1000: "1000 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLineReaderStopsAtTheLimit: an endless line is reported once it passes
// the limit, not read to its (never coming) end.
func TestLineReaderStopsAtTheLimit(t *testing.T) {
	src := &countingReader{r: io.MultiReader(strings.NewReader("{\"ok\":1}\n"), infiniteA{})}
	lr := newLineReader(bufio.NewReaderSize(src, 4096), testLimit)
	if line, err := lr.next(); err != nil || string(line) != `{"ok":1}` {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := lr.next(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("err = %v", err)
	}
	if n := src.n.Load(); n > testLimit+2*4096 {
		t.Fatalf("read %d bytes for a limit of %d", n, testLimit)
	}
}
