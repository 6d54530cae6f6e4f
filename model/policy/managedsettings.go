package policy

import (
	"fmt"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// forcePinsKey is the managed setting that pins every server's tools.
const forcePinsKey = "forceToolPinning"

// ReadManaged reads managed-settings.json; home is where "~" in a
// sandbox rule's maximum leads. A missing file is no policy.
func ReadManaged(f *jsonfile.File, prob *model.Problem, path, home string) (Rules, []model.Problem) {
	if prob != nil {
		return Rules{broken: "managed-settings.json cannot be used (" + prob.Error() + "): every server is blocked", file: path}, []model.Problem{*prob}
	}
	if f == nil {
		return Rules{}, nil
	}
	var probs []model.Problem
	var pol Rules
	pol.file = path
	if n := f.Root.Get(forcePinsKey); n != nil && n.Kind != 'z' {
		if n.Kind != 'b' {
			probs = append(probs, f.ProblemAt("", jsondoc.Want(n, forcePinsKey, "true or false")))
			pol.forcePins = true // an administrator who wrote it meant it
		} else {
			pol.forcePins = string(f.Doc[n.Start:n.End]) == "true"
		}
	}
	for _, key := range []string{"allowedMcpServers", "deniedMcpServers", sandboxedKey} {
		n := f.Root.Get(key)
		if n == nil || n.Kind == 'z' {
			continue
		}
		rules, ferr := decodeRules(jsondoc.Decoder{Doc: f.Doc}, n, key, home)
		if ferr != nil {
			p := f.ProblemAt("", ferr)
			probs = append(probs, p)
			pol.broken = fmt.Sprintf("managed-settings.json cannot be used (%s): every server is blocked", p.Error())
			continue
		}
		switch key {
		case "allowedMcpServers":
			pol.allow = rules
		case "deniedMcpServers":
			pol.deny = rules
		default:
			pol.sandboxed = rules
		}
	}
	return pol, probs
}

// decodeRules decodes a list of rules; an entry with none or several of the
// three keys is an error (an ambiguous policy must not be guessed at).
func decodeRules(d jsondoc.Decoder, n *jsondoc.Node, field, home string) ([]policyRule, *jsondoc.FieldError) {
	if n.Kind != '[' {
		return nil, jsondoc.Want(n, field, "an array")
	}
	rules := make([]policyRule, 0, len(n.Elems))
	for i, e := range n.Elems {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e.Kind != '{' {
			return nil, jsondoc.Want(e, f, "an object")
		}
		members := e.Members
		var bound *sandboxBound
		if i := slices.IndexFunc(members, func(m jsondoc.Member) bool { return m.Key == maximumKey }); i >= 0 && field == sandboxedKey {
			var err *jsondoc.FieldError
			if bound, err = decodeBound(d, members[i].Val, f+"."+maximumKey, home); err != nil {
				return nil, err
			}
			members = slices.Delete(slices.Clone(members), i, i+1)
		}
		if len(members) != 1 {
			return nil, &jsondoc.FieldError{Field: f, Offset: e.Start, Msg: "must have exactly one of serverName, serverUrl, serverCommand"}
		}
		m := members[0]
		r := policyRule{kind: m.Key, bound: bound}
		var err *jsondoc.FieldError
		switch m.Key {
		case "serverName":
			r.name, err = d.Str(m.Val, f+".serverName")
		case "serverUrl":
			if field == sandboxedKey {
				err = &jsondoc.FieldError{Field: f + ".serverUrl", Offset: m.KeyStart, Msg: "a remote server runs elsewhere and cannot be sandboxed (use serverName or serverCommand)"}
				break
			}
			r.url, err = d.Str(m.Val, f+".serverUrl")
			if err == nil {
				var perr error
				if r.urlPat, perr = parseURLPattern(r.url); perr != nil {
					err = &jsondoc.FieldError{Field: f + ".serverUrl", Offset: m.Val.Start, Msg: perr.Error()}
				}
			}
		case "serverCommand":
			r.command, err = d.Strs(m.Val, f+".serverCommand")
			if err == nil && len(r.command) == 0 {
				err = &jsondoc.FieldError{Field: f + ".serverCommand", Offset: m.Val.Start, Msg: "must not be empty"}
			}
		default:
			err = &jsondoc.FieldError{Field: f + "." + m.Key, Offset: m.KeyStart, Msg: "unknown rule (use serverName, serverUrl or serverCommand)"}
		}
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}
