package transports

import (
	"strings"
	"unicode"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// failureWords mark a stderr line that says what went wrong. Matched
// case-insensitively, as words or word starts.
var failureWords = []string{"error", "required", "not found", "missing", "denied", "invalid", "cannot", "can't", "failed", "fatal", "panic", "exception", "refused", "unauthorized", "not set"}

// maxReasonLine caps the line quoted in an error sentence.
const maxReasonLine = 240

// stderrReason picks, from the last lines a process wrote to stderr, the
// one that best says why it ended: the last line naming an error ("Error:
// API_KEY is required", a Python traceback's final "ModuleNotFoundError:
// …"), else the last line with letters in it (the nearest to the end) —
// never the closing "}" of an object printed after the message. The full
// tail stays available (the detail view's Stderr tab); this is for the
// one-line reason.
func stderrReason(tail []string) string {
	last := ""
	for i := len(tail) - 1; i >= 0; i-- {
		line := strings.TrimSpace(tail[i])
		if !hasLetter(line) {
			continue
		}
		if namesFailure(line) {
			return textsafe.Clip(line, maxReasonLine)
		}
		if last == "" {
			last = line
		}
	}
	return textsafe.Clip(last, maxReasonLine)
}

// namesFailure reports whether line names a failure.
func namesFailure(line string) bool {
	l := strings.ToLower(line)
	for _, w := range failureWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}
