package private

import (
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

const keySampling = "samplingDecisions"

// readSamplingDecisions reads "samplingDecisions" by normalized server name;
// a value other than "always" or "never" is a problem naming it and is
// ignored (the person is asked).
func readSamplingDecisions(f *jsonfile.File, probs []model.Problem) (map[string]model.SamplingDecision, []model.Problem) {
	n := f.Root.Get(keySampling)
	if n == nil || n.Kind == 'z' {
		return nil, probs
	}
	if n.Kind != '{' {
		return nil, append(probs, f.ProblemAt("", jsondoc.Want(n, keySampling, "an object")))
	}
	out := map[string]model.SamplingDecision{}
	for _, m := range n.Members {
		field := keySampling + "." + m.Key
		d := model.SamplingDecision(m.Val.Str)
		if m.Val.Kind != 's' || (d != model.SamplingAlways && d != model.SamplingNever) {
			probs = append(probs, f.ProblemAt("", jsondoc.Want(m.Val, field, `"always" or "never"`)))
			continue
		}
		out[model.NormalizeName(m.Key)] = d
	}
	return out, probs
}

// RecordSampling records d for the server name in the private state
// file of the project at root; SamplingAsk forgets the decision.
func RecordSampling(file, root, name string, d model.SamplingDecision) error {
	return EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		if d == model.SamplingAsk {
			out, _, err := jsonfile.DeleteMember(f.Doc, []string{keySampling, name})
			return out, err
		}
		return jsonfile.SetMember(f.Doc, []string{keySampling, name}, string(d))
	})
}
