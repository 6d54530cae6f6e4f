package transports

import (
	"bufio"
	"strings"
	"testing"
	"unsafe"
)

// TestResponseResultStaysInTheMessage: a response's result is a slice of
// the message it came in, not a copy, and an error response has none.
func TestResponseResultStaysInTheMessage(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":3,"result":{"tools":[1, 2]}}`)
	r, err := decodeResponse(msg)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Result) != `{"tools":[1, 2]}` || r.ID.String() != "int64:3" || r.Error != nil {
		t.Fatalf("decoded %+v", r)
	}
	start, end := uintptr(unsafe.Pointer(&msg[0])), uintptr(unsafe.Pointer(&msg[len(msg)-1]))
	if p := uintptr(unsafe.Pointer(&r.Result[0])); p < start || p > end {
		t.Fatal("the result was copied out of the message")
	}
	r, err = decodeResponse([]byte(`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}`))
	if err != nil || r.Error == nil || r.Error.Code != -32601 || r.Result != nil {
		t.Fatalf("error response %+v, %v", r, err)
	}
}

// TestLinesAreTheCallersToKeep: reading the next line never changes the
// memory of a line already returned (a response's result refers into it).
func TestLinesAreTheCallersToKeep(t *testing.T) {
	long := strings.Repeat("y", 100)
	lr := newLineReader(bufio.NewReaderSize(strings.NewReader("first\n"+long+"\nthird\n"), 16), 1000)
	var lines [][]byte
	for range 3 {
		line, err := lr.next()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	if string(lines[0]) != "first" || string(lines[1]) != long || string(lines[2]) != "third" {
		t.Fatalf("lines %q", lines)
	}
}
