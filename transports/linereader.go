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
	buf      []byte
	max      int
	skipping bool // the rest of a too-long line is still to be skipped
}

func newLineReader(br *bufio.Reader, max int) *lineReader {
	return &lineReader{br: br, max: max}
}

// next returns the next line without its newline. The slice is valid until
// the following call. A line longer than max is reported as errLineTooLong
// (wrapped) as soon as it passes max, having read at most max bytes and one
// buffer of it, so an endless line is caught too; a caller that reads on
// gets the line after it (the rest is skipped then).
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > 1<<20 { // do not keep a huge buffer around after a big message
		l.buf = nil
	}
	l.buf = l.buf[:0]
	for l.skipping {
		_, err := l.br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			l.skipping = false
			if err != nil {
				return nil, err
			}
		}
	}
	for {
		chunk, err := l.br.ReadSlice('\n')
		size := len(l.buf) + len(chunk)
		if err == nil {
			size-- // the newline is not part of the message
		}
		if size > l.max {
			l.buf = l.buf[:0]
			l.skipping = errors.Is(err, bufio.ErrBufferFull)
			return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, l.max)
		}
		if need := len(l.buf) + len(chunk); need > cap(l.buf) {
			// grow geometrically, but never past the limit
			nb := make([]byte, len(l.buf), min(max(2*cap(l.buf), need), l.max+1))
			copy(nb, l.buf)
			l.buf = nb
		}
		l.buf = append(l.buf, chunk...)
		switch {
		case err == nil:
			return l.buf[:len(l.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			if len(l.buf) > 0 {
				return l.buf, nil // last line without newline; err comes next call
			}
			return nil, err
		}
	}
}
