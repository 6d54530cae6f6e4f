package cli

import (
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// load is model.Load that remembers the secret set of every server it
// found (model.Resolved.Secrets): the error a command ends with is masked
// with them all (runMask), whichever server it came from.
func (g *globalOpts) load(lo model.LoadOptions) (*model.Resolved, error) {
	res, err := model.Load(lo)
	g.runSecrets = append(g.runSecrets, res.Secrets()...)
	return res, err
}

// runMask is the Masker of every secret set this run loaded.
func (g *globalOpts) runMask() *textsafe.Masker { return textsafe.NewMasker(g.runSecrets...) }
