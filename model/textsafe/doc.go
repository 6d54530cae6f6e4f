// Package textsafe keeps text from outside — config files, servers,
// authorization servers, stderr — from doing anything on a terminal but
// show, and keeps secrets out of what mcpdeck shows or writes. It is the
// one filter (Sanitize, SanitizeLine, SanitizeStyled over one set of
// characters, HiddenRune), the one way to show such text exactly (Escape,
// EscapeJSON, QuoteArg), the cap on how much of it is shown (Truncate),
// and the one masker of secrets (Masker, with the rules for a value as
// written, MaskWritten, and for what masking may have missed, TokenJudge).
// It imports only the standard library, so every other package may use it.
package textsafe
