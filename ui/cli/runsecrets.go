package cli

import (
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// load is config.Load that remembers the secret set of every server it
// found (config.Resolved.Secrets): the error a command ends with is masked
// with them all (runMask), whichever server it came from.
func (g *globalOpts) load(lo config.LoadOptions) (*config.Resolved, error) {
	res, err := config.Load(lo)
	g.runSecrets = append(g.runSecrets, res.Secrets()...)
	return res, err
}

// runMask is the Masker of every secret set this run loaded.
func (g *globalOpts) runMask() *textsafe.Masker { return textsafe.NewMasker(g.runSecrets...) }
