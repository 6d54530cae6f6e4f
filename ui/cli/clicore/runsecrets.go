package clicore

import (
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Load is config.Load that remembers the secret set of every server it
// found (config.Resolved.Secrets): the error a command ends with is masked
// with them all (RunMask), whichever server it came from.
func (g *Globals) Load(lo config.LoadOptions) (*config.Resolved, error) {
	res, err := config.Load(lo)
	g.runSecrets = append(g.runSecrets, res.Secrets()...)
	return res, err
}

// RunMask is the Masker of every secret set this run loaded.
func (g *Globals) RunMask() *textsafe.Masker { return textsafe.NewMasker(g.runSecrets...) }

// LoadResolved loads the merged configuration with the global options.
func LoadResolved(g *Globals) (*config.Resolved, error) {
	opts, err := g.LoadOptions()
	if err != nil {
		return nil, err
	}
	return g.Load(opts)
}
