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
	br  *bufio.Reader
	buf []byte
	max int
}

func newLineReader(br *bufio.Reader, max int) *lineReader {
	return &lineReader{br: br, max: max}
}

// next returns the next line without its newline. The slice is valid until
// the following call. A line longer than max is skipped up to its newline
// and reported as errLineTooLong (wrapped), after which reading may go on.
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > 1<<20 { // do not keep a huge buffer around after a big message
		l.buf = nil
	}
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+1 {
				tooLong, l.buf = true, l.buf[:0]
			} else {
				if need := len(l.buf) + len(chunk); need > cap(l.buf) {
					// grow geometrically, but never past the limit
					nb := make([]byte, len(l.buf), min(max(2*cap(l.buf), need), l.max+1))
					copy(nb, l.buf)
					l.buf = nb
				}
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, l.max)
			}
			return l.buf[:len(l.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			if tooLong || len(l.buf) > l.max {
				l.buf = l.buf[:0]
				return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, l.max)
			}
			if len(l.buf) > 0 {
				return l.buf, nil // last line without newline; err comes next call
			}
			return nil, err
		}
	}
}
