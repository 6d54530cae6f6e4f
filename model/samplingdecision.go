package model

// SamplingDecision is what the person decided about a server's sampling
// requests (sampling/createMessage) for good. It is kept in the project's
// private state under "samplingDecisions" ({"name": "always"|"never"}), never
// in a file of the working tree: a repository cannot let its servers sample.
type SamplingDecision string

// Sampling decisions. The zero value asks the person every time.
const (
	SamplingAsk    SamplingDecision = ""
	SamplingAlways SamplingDecision = "always"
	SamplingNever  SamplingDecision = "never"
)
