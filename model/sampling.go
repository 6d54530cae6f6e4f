package model

import (
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

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

const keySampling = "samplingDecisions"

// readSamplingDecisions reads "samplingDecisions" by normalized server name;
// a value other than "always" or "never" is a problem naming it and is
// ignored (the person is asked).
func readSamplingDecisions(f *File, probs []Problem) (map[string]SamplingDecision, []Problem) {
	n := f.Root.Get(keySampling)
	if n == nil || n.Kind == 'z' {
		return nil, probs
	}
	if n.Kind != '{' {
		return nil, append(probs, f.ProblemAt("", jsondoc.Want(n, keySampling, "an object")))
	}
	out := map[string]SamplingDecision{}
	for _, m := range n.Members {
		field := keySampling + "." + m.Key
		d := SamplingDecision(m.Val.Str)
		if m.Val.Kind != 's' || (d != SamplingAlways && d != SamplingNever) {
			probs = append(probs, f.ProblemAt("", jsondoc.Want(m.Val, field, `"always" or "never"`)))
			continue
		}
		out[NormalizeName(m.Key)] = d
	}
	return out, probs
}

// RecordSampling records d for the server name in the private state
// file of the project at root; SamplingAsk forgets the decision.
func RecordSampling(file, root, name string, d SamplingDecision) error {
	return EditState(file, root, func(f *File) ([]byte, error) {
		if d == SamplingAsk {
			out, _, err := DeleteMember(f.Doc, []string{keySampling, name})
			return out, err
		}
		return SetMember(f.Doc, []string{keySampling, name}, string(d))
	})
}
