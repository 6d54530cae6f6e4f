package engine

import "github.com/mcpdeck/mcpdeck/model"

// redact masks what an error text may reveal of en's secrets: credentials
// in any URL it names, and the expanded env, header, URL and argument
// values of its definition (model.RedactText). Every error sentence and
// detail the engine publishes or returns about a server passes through it,
// so the TUI, mcp list (--json too), mcp get and call all show the same
// masked text. Callers hold e.mu.
func (en *entry) redact(s string) string {
	return model.RedactText(s, en.secrets...)
}

// errText is err as a sentence a person reads about en's server, with its
// secrets masked. Callers hold e.mu.
func (e *Engine) errText(en *entry, err error) string {
	return en.redact(e.errs.humanize(err))
}
