package scan

import (
	"regexp"
	"strings"
)

// Level is how much a finding matters: a Warning makes `mcpdeck scan`
// exit 1.
type Level string

// The levels of a rule.
const (
	Warning Level = "warning"
	Note    Level = "note"
)

// Rule is one thing the scan looks for. A rule with patterns reports each
// match; the others (invisible characters, shadowing, size) are worked
// out by their ID in scan.go.
type Rule struct {
	ID      string `json:"id"`
	Level   Level  `json:"level"`
	Summary string `json:"summary"`
	// patterns match in one text (case-insensitive where written so);
	// hints are words one of which a match must hold (lower case): a text
	// with none of them is not searched, which keeps a listing of 10 000
	// tools cheap to scan.
	patterns []*regexp.Regexp
	hints    []string
}

// The rule IDs.
const (
	RuleHiddenInstructions = "hidden-instructions"
	RuleInvisible          = "invisible-characters"
	RuleSecretPath         = "secret-path"
	RuleSecretWord         = "secret-mention"
	RuleShadowing          = "shadowing"
	RuleSendTo             = "send-to-address"
	RuleURL                = "url"
	RuleOversized          = "oversized"
)

// OversizedText is the length, in runes, past which a description is
// reported as oversized (instructions: twice as much).
const OversizedText = 4096

// Rules are every rule, in the order findings are reported. It is built
// once and never changed.
var Rules = []Rule{
	{ID: RuleHiddenInstructions, Level: Warning, Summary: "instructions aimed at the model and hidden from the person", patterns: res(
		`(?i)<\s*(important|system|instructions?|secret|hidden|admin|critical)\b[^>]{0,40}>`,
		`(?i)\b(do not|don't|dont|never|must not)\s+(tell|mention|inform|reveal|show|notify|alert|disclose)(\s+\S+){0,6}?\s+(the\s+)?(user|human|person)\b`,
		`(?i)\b(without|before)\s+(telling|informing|notifying|asking|alerting)\s+the\s+(user|human|person)\b`,
		`(?i)\b(ignore|disregard|forget)\s+(all\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|other)\s+(instructions|rules|prompts?)\b`,
		`(?i)\byou\s+are\s+now\b|\bnew\s+instructions\s*:`,
	), hints: []string{"<", "tell", "mention", "inform", "reveal", "show", "notify", "alert", "disclose", "without", "before", "ignore", "disregard", "forget", "you are now", "new instructions"}},
	{ID: RuleInvisible, Level: Warning, Summary: "invisible characters (tag characters, bidi controls, zero-width and other hidden characters)"},
	{ID: RuleSecretPath, Level: Warning, Summary: "a reference to a file or place that holds secrets", patterns: res(
		`(?i)~/\.ssh\b|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|(^|[\s/'"\x60(])\.env\b|\.aws/(credentials|config)\b|\bcredentials\.json\b|\.netrc\b|\.npmrc\b|\.pgpass\b|\.git-credentials\b|/etc/(shadow|passwd)\b|\.kube/config\b|\.docker/config\.json\b|\.gnupg\b`,
	), hints: []string{"ssh", "id_", ".env", ".aws", "credentials.json", ".netrc", ".npmrc", ".pgpass", ".git-credentials", "/etc/", ".kube", ".docker", ".gnupg"}},
	{ID: RuleSecretWord, Level: Note, Summary: "a mention of credentials, tokens or keys", patterns: res(
		`(?i)\b(credentials?|passwords?|passphrases?|private[\s_-]?keys?|api[\s_-]?keys?|secret[\s_-]?keys?|(access|auth|bearer|session|refresh)[\s_-]?tokens?)\b`,
	), hints: []string{"credential", "password", "passphrase", "key", "token"}},
	{ID: RuleShadowing, Level: Warning, Summary: "steers how another tool is used (shadowing)"},
	{ID: RuleSendTo, Level: Warning, Summary: "asks for data to be sent to an address", patterns: res(
		`(?i)\b(send|post|upload|forward|bcc|cc|copy|exfiltrate|transmit|submit|report|leak|mail)\b[^.\n]{0,80}?(https?://[^\s"'<>\x60]+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b)`,
	), hints: []string{"http", "@"}},
	{ID: RuleURL, Level: Note, Summary: "a URL", patterns: res(`(?i)\bhttps?://[^\s"'<>\x60]+`), hints: []string{"http"}},
	{ID: RuleOversized, Level: Note, Summary: "an oversized text (room to hide instructions)"},
}

// shadowHints are the words one of which a steering phrase holds (see
// Rule.hints).
var shadowHints = []string{"when", "if", "after", "before", "instead", "tool"}

// shadowPatterns find a tool named in a phrase that steers its use; the
// submatch "tool" is the name.
var shadowPatterns = res(
	`(?i)\b(when|whenever|if|after|before)\s+(the\s+|any\s+)?[\x60'"]?(?P<tool>[A-Za-z0-9_.-]+)[\x60'"]?\s+(tool\s+)?(is\s+|gets\s+)?(used|called|invoked|run|executed)\b`,
	`(?i)\b(before|after|instead\s+of|when)\s+(using|calling|invoking|running)\s+(the\s+)?[\x60'"]?(?P<tool>[A-Za-z0-9_.-]+)`,
	`(?i)\b(the|any)\s+[\x60'"]?(?P<tool>[A-Za-z0-9_.-]+)[\x60'"]?\s+tool\s+(must|should|has\s+to)\b`,
)

func res(exprs ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(exprs))
	for i, e := range exprs {
		out[i] = regexp.MustCompile(e)
	}
	return out
}

// hinted reports whether lower (a text in lower case) holds one of hints;
// no hints is always.
func hinted(lower string, hints []string) bool {
	if len(hints) == 0 {
		return true
	}
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// RuleByID finds a rule.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
