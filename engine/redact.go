package engine

// redact masks what a text about en's server may reveal of its secrets,
// with the server's one Masker (its secret set, model.Server.Secrets).
// Every error sentence and detail the engine publishes or returns about a
// server passes through it, so the TUI, mcp list (--json too), mcp get,
// call and serve all show the same masked text. Callers hold e.mu.
func (en *entry) redact(s string) string {
	return en.mask.Mask(s)
}

// errText is err as a sentence a person reads about en's server, with its
// secrets masked. Callers hold e.mu.
func (e *Engine) errText(en *entry, err error) string {
	return en.redact(e.errs.humanize(err))
}
