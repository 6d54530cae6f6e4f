package jsonfile

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// Definition is one server entry found in one file, before merging.
type Definition struct {
	Name     string
	Origin   model.Origin
	Raw      model.ServerConfig
	Problems []model.Problem
	File     *File // where it was read, to locate later problems
	Node     *jsondoc.Node
	Dir      string // what a relative cwd is relative to; "" = the source's directory
}

// ServersIn extracts the "mcpServers" object of a parsed file. A malformed
// entry becomes a definition carrying a Problem (so it is listed, not
// silently dropped, and cannot run); the file's other entries are unaffected.
// A malformed "mcpServers" itself is a file-level problem.
func ServersIn(f *File, scope model.Scope, source string) ([]Definition, []model.Problem) {
	ms := f.Root.Get("mcpServers")
	if ms == nil || ms.Kind == 'z' {
		return nil, nil
	}
	if ms.Kind != '{' {
		e := jsondoc.Want(ms, "mcpServers", "an object")
		return nil, []model.Problem{f.ProblemAt("", e)}
	}
	origin := model.Origin{Scope: scope, Source: source}
	defs := make([]Definition, 0, len(ms.Members))
	for _, m := range ms.Members {
		d := Definition{Name: m.Key, Origin: origin, File: f, Node: m.Val}
		cfg, ferr := model.DecodeServerConfig(jsondoc.Decoder{Doc: f.Doc}, m.Val, "")
		d.Raw = cfg
		if ferr != nil {
			d.Problems = append(d.Problems, f.ProblemAt(m.Key, ferr))
		}
		if err := model.CheckServerName(m.Key); err != nil {
			line, col := jsondoc.LineCol(f.Doc, m.KeyStart)
			d.Problems = append(d.Problems, model.Problem{
				File: f.Path, Line: line, Col: col, Server: m.Key,
				Message: strings.TrimPrefix(err.Error(), model.ErrInvalid.Error()+": "),
			})
		}
		defs = append(defs, d)
	}
	for _, dup := range ms.Dups {
		for i := range defs {
			if defs[i].Name == dup.Key {
				line, col := jsondoc.LineCol(f.Doc, dup.KeyStart)
				defs[i].Problems = append(defs[i].Problems, model.Problem{
					File: f.Path, Line: line, Col: col, Server: dup.Key,
					Message: fmt.Sprintf("duplicate key %q: the server is defined twice in this file", dup.Key),
				})
			}
		}
	}
	return defs, nil
}

// ServersKey holds the servers of a configuration file, and of the local
// scope in the private state.
const ServersKey = "mcpServers"
