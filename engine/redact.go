package engine

// redact masks what a text about en's server may reveal of its secrets,
// with the server's one Masker (its secret set, model.Server.Secrets).
// Every error sentence and detail the engine publishes or returns about a
// server passes through it, so the TUI, mcp list (--json too), mcp get,
// call and serve all show the same masked text. Callers hold e.mu.
func (en *entry) redact(s string) string {
	return en.mask.Mask(s)
}

// maskErr is err with its sentence masked (redact); errors.Is and
// errors.As still reach err. Callers hold e.mu.
func (en *entry) maskErr(err error) error {
	return &maskedError{msg: en.redact(err.Error()), err: err}
}

// maskedError is an error whose sentence was masked.
type maskedError struct {
	msg string
	err error
}

func (m *maskedError) Error() string { return m.msg }

// Unwrap returns the error as it was.
func (m *maskedError) Unwrap() error { return m.err }

// text is err as a sentence a person reads about en's server, with its
// secrets masked. Callers hold e.mu.
func (o errorOps) text(en *entry, err error) string {
	return en.redact(o.humanize(err))
}
