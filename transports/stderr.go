package transports

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Limits of the stderr capture of one stdio server.
const (
	stderrMaxLines  = 500       // lines kept in memory
	stderrMaxBytes  = 256 << 10 // bytes kept in memory
	stderrMaxLine   = 4 << 10   // longer lines are cut
	logRotateBytes  = 5 << 20   // the log file is rotated beyond this
	logMaxLine      = 64 << 10  // longer lines are cut in the log file
	exitTailLines   = 20        // lines put into ExitError.StderrTail
	stdoutNoiseNote = "[stdout] "
)

// stderrRing keeps the most recent lines of a server's stderr in memory,
// bounded by line count and total bytes, and copies every line, masked, to
// a log file that is rotated at logRotateBytes (one old file kept as .1).
type stderrRing struct {
	// mask is the server's one Masker: a secret of its set that the
	// server prints never reaches the disk (the lines in memory are
	// masked when they are read, StderrTail's callers).
	mask  *textsafe.Masker
	mu    sync.Mutex
	lines []string // oldest first
	bytes int
	// changed gets a token after new lines arrive; its one slot coalesces
	// a burst into one wake-up, so a reader is never flooded.
	changed chan struct{}

	logPath string
	log     *os.File
	logBuf  *bufio.Writer // on log: a flood is written in blocks, flushed once the reader waits (consume)
	logSize int64
	logLine []byte // the line being read, up to logMaxLine+mask.Longest()
}

func newStderrRing(logDir, name string, mask *textsafe.Masker) *stderrRing {
	r := &stderrRing{changed: make(chan struct{}, 1), mask: mask}
	if logDir == "" {
		return r
	}
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		return r
	}
	r.logPath = LogPath(logDir, name)
	r.openLog()
	return r
}

func (r *stderrRing) openLog() {
	f, err := os.OpenFile(r.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		r.log = nil
		return
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return
	}
	r.log, r.logSize = f, st.Size()
	if r.logBuf == nil {
		r.logBuf = bufio.NewWriterSize(f, 32<<10)
	} else {
		r.logBuf.Reset(f)
	}
}

// flushLog writes what the log's buffer holds; a failed write ends the log.
func (r *stderrRing) flushLog() {
	if r.log != nil && r.logBuf.Flush() != nil {
		_ = r.log.Close()
		r.log = nil
	}
}

// note records a line that did not come from stderr (stdout noise), in
// memory and in the log file.
func (r *stderrRing) note(line string) {
	r.addMem([]byte(line))
	lock.With(&r.mu, func() {
		r.writeLog([]byte(r.mask.Mask(line) + "\n"))
		r.flushLog()
	})
}

// logChunk adds chunk, a piece of the line being read, to the log: a line
// is written whole once it ends (end), masked first. A line longer than
// logMaxLine is cut there; what is masked reaches past the cut by the
// longest secret, so no secret is split by it and left half shown.
func (r *stderrRing) logChunk(chunk []byte, end bool) {
	if r.log == nil {
		return
	}
	if room := logMaxLine + r.mask.Longest() - len(r.logLine); room > 0 {
		r.logLine = append(r.logLine, chunk[:min(room, len(chunk))]...)
	}
	if !end {
		return
	}
	line := strings.TrimSuffix(string(r.logLine), "\n")
	out := r.mask.Mask(line)
	if len(line) > logMaxLine {
		out = truncateUTF8(out, logMaxLine) + "… [line cut]"
	}
	r.writeLog([]byte(out + "\n"))
	r.logLine = r.logLine[:0]
}

func (r *stderrRing) writeLog(b []byte) {
	if r.log == nil {
		return
	}
	if r.logSize+int64(len(b)) > logRotateBytes {
		r.flushLog()
		if r.log == nil {
			return
		}
		_ = r.log.Close()
		_ = os.Rename(r.logPath, r.logPath+".1")
		r.openLog()
		if r.log == nil {
			return
		}
	}
	n, err := r.logBuf.Write(b)
	r.logSize += int64(n)
	if err != nil {
		_ = r.log.Close()
		r.log = nil
	}
}

// tail returns the last n lines (all when n <= 0).
func (r *stderrRing) tail(n int) (lines []string) {
	lock.With(&r.mu, func() {
		if n <= 0 || n > len(r.lines) {
			n = len(r.lines)
		}
		lines = append([]string(nil), r.lines[len(r.lines)-n:]...)
	})
	return lines
}

func (r *stderrRing) close() {
	lock.With(&r.mu, func() {
		r.flushLog()
		if r.log != nil {
			_ = r.log.Close()
			r.log = nil
		}
	})
}

// consume reads src line by line into the ring until EOF or an error.
func (r *stderrRing) consume(src io.Reader) {
	br := bufio.NewReaderSize(src, 64<<10)
	var cur []byte // the start of the current line, capped
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			lock.With(&r.mu, func() {
				r.logChunk(chunk, chunk[len(chunk)-1] == '\n')
				if br.Buffered() == 0 { // the server is quiet for now: the file has all it wrote
					r.flushLog()
				}
			})
			if room := stderrMaxLine + 1 - len(cur); room > 0 {
				cur = append(cur, chunk[:min(room, len(chunk))]...)
			}
			if chunk[len(chunk)-1] == '\n' {
				r.addMem(cur)
				cur = cur[:0]
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if len(cur) > 0 {
				r.addMem(cur)
			}
			lock.With(&r.mu, func() {
				if len(r.logLine) > 0 {
					r.logChunk(nil, true)
				}
			})
			return
		}
	}
}

// addMem is add without the log write (consume writes lines itself).
func (r *stderrRing) addMem(b []byte) {
	line := strings.TrimRight(string(b), "\r\n")
	if len(line) > stderrMaxLine {
		line = truncateUTF8(line, stderrMaxLine) + "… [truncated]"
	}
	lock.With(&r.mu, func() {
		r.lines = append(r.lines, line)
		r.bytes += len(line)
		for len(r.lines) > stderrMaxLines || r.bytes > stderrMaxBytes {
			r.bytes -= len(r.lines[0])
			r.lines[0] = ""
			r.lines = r.lines[1:]
		}
		if cap(r.lines) > 4*stderrMaxLines {
			r.lines = append([]string(nil), r.lines...)
		}
		select {
		case r.changed <- struct{}{}:
		default: // a wake-up is already pending
		}
	})
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// LogPath returns the stderr log file of server name in logDir (the file
// rotated at 5 MB keeps one predecessor at LogPath+".1"); "" if logDir is "".
// The name is cleaned to something every filesystem accepts, which maps
// different names ("a/b", "a_b", or "A" and "a" on a case-insensitive
// filesystem) to one string; a hash of the exact name keeps their logs apart.
func LogPath(logDir, name string) string {
	if logDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(logDir, safeFileName(name)+"-"+hex.EncodeToString(sum[:6])+".log")
}

// safeFileName maps a server name to a file name.
func safeFileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 || strings.Trim(b.String(), ".") == "" {
		return "server"
	}
	return b.String()
}
