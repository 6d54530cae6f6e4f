package platform

import "bytes"

// CappedBuffer keeps the first max bytes written to it and notes that more
// came. A write never fails, so a program whose output is captured (a
// helper, a sampling command) is not stopped by a broken pipe, and a
// program that prints without end costs max bytes. The zero value keeps
// nothing; use NewCappedBuffer. Like bytes.Buffer it is for one writer at a
// time (exec.Cmd copies each of Stdout and Stderr from one goroutine).
type CappedBuffer struct {
	buf    bytes.Buffer
	max    int
	over   bool
	onOver func()
}

// NewCappedBuffer returns a buffer that keeps at most max bytes.
func NewCappedBuffer(max int) *CappedBuffer { return &CappedBuffer{max: max} }

// OnOver has f called once, at the first write that does not fit (the
// shell runner ends a program that prints without end), and returns b.
func (b *CappedBuffer) OnOver(f func()) *CappedBuffer {
	b.onOver = f
	return b
}

// Write keeps what fits and reports all of p written.
func (b *CappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room < len(p) {
		if room > 0 {
			b.buf.Write(p[:room])
		}
		if !b.over && b.onOver != nil {
			b.onOver()
		}
		b.over = true
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

// Bytes returns what was kept.
func (b *CappedBuffer) Bytes() []byte { return b.buf.Bytes() }

// String returns what was kept.
func (b *CappedBuffer) String() string { return b.buf.String() }

// Over reports whether more than max bytes were written, so the kept bytes
// are only the start.
func (b *CappedBuffer) Over() bool { return b.over }
