package clicore

import "github.com/mcpdeck/mcpdeck/model"

// Load is model.Load that remembers the secret set of every server it
// found (model.Resolved.Secrets): the error a command ends with is masked
// with them all (RunMask), whichever server it came from.
func (g *Globals) Load(lo model.LoadOptions) (*model.Resolved, error) {
	res, err := model.Load(lo)
	g.runSecrets = append(g.runSecrets, res.Secrets()...)
	return res, err
}

// RunMask is the Masker of every secret set this run loaded.
func (g *Globals) RunMask() *model.Masker { return model.NewMasker(g.runSecrets...) }

// LoadResolved loads the merged configuration with the global options.
func LoadResolved(g *Globals) (*model.Resolved, error) {
	opts, err := g.LoadOptions()
	if err != nil {
		return nil, err
	}
	return g.Load(opts)
}
