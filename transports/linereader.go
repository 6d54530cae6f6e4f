package transports

import (
	"bufio"
	"errors"
	"fmt"
)

// errLineTooLong is returned by readLine for a message above the limit.
var errLineTooLong = errors.New("message too long")

// lineReader reads newline-delimited messages of at most max bytes, so that a
// server writing an endless line cannot make us buffer it all.
type lineReader struct {
	br       *bufio.Reader
	max      int
	skipping bool // the rest of a too-long line is still to be skipped
}

func newLineReader(br *bufio.Reader, max int) *lineReader {
	return &lineReader{br: br, max: max}
}

// next returns the next line without its newline. The slice is the
// caller's to keep (a response's result refers into it rather than being
// copied out of it: a 26 MB answer then costs 26 MB, not twice that). A
// line longer than max is reported as errLineTooLong
// (wrapped) as soon as it passes max, having read at most max bytes and one
// buffer of it, so an endless line is caught too; a caller that reads on
// gets the line after it (the rest is skipped then).
func (l *lineReader) next() ([]byte, error) {
	for l.skipping {
		_, err := l.br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			l.skipping = false
			if err != nil {
				return nil, err
			}
		}
	}
	var buf []byte
	for {
		chunk, err := l.br.ReadSlice('\n')
		size := len(buf) + len(chunk)
		if err == nil {
			size-- // the newline is not part of the message
		}
		if size > l.max {
			l.skipping = errors.Is(err, bufio.ErrBufferFull)
			return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, l.max)
		}
		if need := len(buf) + len(chunk); need > cap(buf) {
			// exact for a line in one chunk; then geometrically, never past the limit
			nb := make([]byte, len(buf), min(max(2*cap(buf), need), l.max+1))
			copy(nb, buf)
			buf = nb
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			if len(buf) > 0 {
				return buf, nil // last line without newline; err comes next call
			}
			return nil, err
		}
	}
}
