package model

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// Definition is one server entry found in one file, before merging.
type Definition struct {
	Name     string
	Origin   Origin
	Raw      ServerConfig
	Problems []Problem
	File     *File // where it was read, to locate later problems
	Node     *jsondoc.Node
	Dir      string // what a relative cwd is relative to; "" = the source's directory
}

// ServersIn extracts the "mcpServers" object of a parsed file. A malformed
// entry becomes a definition carrying a Problem (so it is listed, not
// silently dropped, and cannot run); the file's other entries are unaffected.
// A malformed "mcpServers" itself is a file-level problem.
func ServersIn(f *File, scope Scope, source string) ([]Definition, []Problem) {
	ms := f.Root.Get("mcpServers")
	if ms == nil || ms.Kind == 'z' {
		return nil, nil
	}
	if ms.Kind != '{' {
		e := jsondoc.Want(ms, "mcpServers", "an object")
		return nil, []Problem{f.ProblemAt("", e)}
	}
	origin := Origin{Scope: scope, Source: source}
	defs := make([]Definition, 0, len(ms.Members))
	for _, m := range ms.Members {
		d := Definition{Name: m.Key, Origin: origin, File: f, Node: m.Val}
		cfg, ferr := DecodeServerConfig(jsondoc.Decoder{Doc: f.Doc}, m.Val, "")
		d.Raw = cfg
		if ferr != nil {
			d.Problems = append(d.Problems, f.ProblemAt(m.Key, ferr))
		}
		if err := CheckServerName(m.Key); err != nil {
			line, col := jsondoc.LineCol(f.Doc, m.KeyStart)
			d.Problems = append(d.Problems, Problem{
				File: f.Path, Line: line, Col: col, Server: m.Key,
				Message: strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "),
			})
		}
		defs = append(defs, d)
	}
	for _, dup := range ms.Dups {
		for i := range defs {
			if defs[i].Name == dup.Key {
				line, col := jsondoc.LineCol(f.Doc, dup.KeyStart)
				defs[i].Problems = append(defs[i].Problems, Problem{
					File: f.Path, Line: line, Col: col, Server: dup.Key,
					Message: fmt.Sprintf("duplicate key %q: the server is defined twice in this file", dup.Key),
				})
			}
		}
	}
	return defs, nil
}
