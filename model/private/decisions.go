package private

import (
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// Local settings — the person's private state of one project, kept in the
// config dir (see StatePath), never in the working tree — hold,
// besides "mcpServers" of the local scope, the person's decisions:
//
//	{
//	  "project": "/home/me/src/app",                // canonical project root
//	  "mcpServers": { ... },
//	  "enabledMcpjsonServers": ["github"],          // approved project servers
//	  "disabledMcpjsonServers": ["sketchy"],        // rejected project servers
//	  "enableAllProjectMcpServers": false,          // approve every project server
//	  "approvedMcpjsonServers": {                   // what exactly was approved
//	    "github": {"hash": "<ConfigHash>", "config": { ...definition as approved... }}
//	  },
//	  "disabledMcpServers": ["slack"],              // servers the person disabled
//	  "permissions": {"allow": ["mcp__github__*"], "deny": []},
//	  "samplingDecisions": {"github": "always"},   // see samplingdecisions.go
//	  "untrustedLocalNotice": {"path": "...", "hash": "..."} // see untrusted.go
//	}
//
// User settings (settings.json in the config dir) may also hold "permissions".
const (
	keyEnabledMcpjson  = "enabledMcpjsonServers"
	keyDisabledMcpjson = "disabledMcpjsonServers"
	keyEnableAll       = "enableAllProjectMcpServers"
	keyApproved        = "approvedMcpjsonServers"
	keyDisabled        = "disabledMcpServers"
)

// approvedEntry is one element of approvedMcpjsonServers.
type approvedEntry struct {
	Hash   string             `json:"hash"`
	Config model.ServerConfig `json:"config"`
}

// Decisions is the decision part of local settings.
type Decisions struct {
	enabledMcpjson  []string
	disabledMcpjson []string
	enableAll       bool
	approved        map[string]approvedEntry // by normalized name
	disabled        []string
	permissions     policy.Permissions
	sampling        map[string]model.SamplingDecision // by normalized name, see samplingdecisions.go
	// unreadable is the problem of a private state file that exists but
	// cannot be read: the decisions are unknown (see Unknown).
	unreadable *model.Problem
}

// Unknown is the decisions of a private state file that exists but cannot
// be read (p says why) when no earlier read of it is at hand: whether the
// person approved or rejected a project server is not known, so none of
// them runs and none is asked about as new (model.ApprovalUnknown).
func Unknown(p model.Problem) Decisions { return Decisions{unreadable: &p} }

// Unreadable is the problem of the file the decisions could not be read
// from (Unknown), nil when they were read.
func (st Decisions) Unreadable() *model.Problem { return st.unreadable }

// Disabled reports whether the person disabled the server name.
func (st Decisions) Disabled(name string) bool { return containsName(st.disabled, name) }

// Sampling is the person's standing answer to the server name's sampling
// requests.
func (st Decisions) Sampling(name string) model.SamplingDecision {
	return st.sampling[model.NormalizeName(name)]
}

// ReadDecisions extracts the decisions. A field of the wrong type is a
// problem naming it and is ignored; the rest still applies.
func ReadDecisions(f *jsonfile.File) (Decisions, []model.Problem) {
	var st Decisions
	var probs []model.Problem
	d := jsondoc.Decoder{Doc: f.Doc}
	report := func(e *jsondoc.FieldError) {
		if e != nil {
			probs = append(probs, f.ProblemAt("", e))
		}
	}
	list := func(key string) []string {
		n := f.Root.Get(key)
		if n == nil {
			return nil
		}
		v, e := d.Strs(n, key)
		report(e)
		return v
	}
	st.enabledMcpjson = list(keyEnabledMcpjson)
	st.disabledMcpjson = list(keyDisabledMcpjson)
	st.disabled = list(keyDisabled)
	if n := f.Root.Get(keyEnableAll); n != nil {
		switch n.Kind {
		case 'b':
			st.enableAll = string(f.Doc[n.Start:n.End]) == "true"
		case 'z':
		default:
			report(jsondoc.Want(n, keyEnableAll, "true or false"))
		}
	}
	st.permissions, probs = policy.ReadPermissions(f, probs)
	st.sampling, probs = readSamplingDecisions(f, probs)
	if n := f.Root.Get(keyApproved); n != nil && n.Kind != 'z' {
		if n.Kind != '{' {
			report(jsondoc.Want(n, keyApproved, "an object"))
		} else {
			st.approved = map[string]approvedEntry{}
			for _, m := range n.Members {
				e, ferr := decodeApproved(d, m.Val, keyApproved+"."+m.Key)
				report(ferr)
				if ferr == nil {
					st.approved[model.NormalizeName(m.Key)] = e
				}
			}
		}
	}
	return st, probs
}

// decodeApproved decodes {"hash": "...", "config": {...}}, or a bare "hash"
// string (written by hand: the change is still detected, the diff then shows
// the whole current definition as new).
func decodeApproved(d jsondoc.Decoder, n *jsondoc.Node, field string) (approvedEntry, *jsondoc.FieldError) {
	var e approvedEntry
	if n.Kind == 's' {
		e.Hash = n.Str
		return e, nil
	}
	if n.Kind != '{' {
		return e, jsondoc.Want(n, field, `an object {"hash": ..., "config": ...}`)
	}
	h := n.Get("hash")
	if h == nil {
		return e, &jsondoc.FieldError{Field: field, Offset: n.Start, Msg: "missing hash"}
	}
	var ferr *jsondoc.FieldError
	if e.Hash, ferr = d.Str(h, field+".hash"); ferr != nil {
		return e, ferr
	}
	if c := n.Get("config"); c != nil && c.Kind != 'z' {
		if e.Config, ferr = model.DecodeServerConfig(d, c, field+".config"); ferr != nil {
			return e, ferr
		}
	}
	return e, nil
}

// containsName reports whether list holds name, comparing normalized names
// ("my.server" and "my_server" are the same decision).
func containsName(list []string, name string) bool {
	n := model.NormalizeName(name)
	for _, s := range list {
		if model.NormalizeName(s) == n {
			return true
		}
	}
	return false
}

// withName returns list plus name at the end (if absent), keeping the order
// the person wrote.
func withName(list []string, name string) []string {
	if containsName(list, name) {
		return list
	}
	return append(append([]string(nil), list...), name)
}

// withoutName returns list minus every entry equal to name after normalization.
func withoutName(list []string, name string) []string {
	n := model.NormalizeName(name)
	out := []string{}
	for _, s := range list {
		if model.NormalizeName(s) != n {
			out = append(out, s)
		}
	}
	return out
}
