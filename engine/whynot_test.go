package engine

import "github.com/mcpdeck/mcpdeck/model"

// whyNot is srv's blockers worded, as configure stores them: one sentence
// per reason srv cannot run as configured.
func whyNot(srv model.Server, lookPath func(string) (string, error)) []string {
	return whyWords(srv, blockers(srv, lookPath))
}
