package model

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// definition is one server entry found in one file, before merging.
type definition struct {
	name     string
	origin   Origin
	raw      ServerConfig
	problems []Problem
	file     *jsonFile // where it was read, to locate later problems
	node     *jsondoc.Node
	dir      string // what a relative cwd is relative to; "" = the source's directory
}

// serversIn extracts the "mcpServers" object of a parsed file. A malformed
// entry becomes a definition carrying a Problem (so it is listed, not
// silently dropped, and cannot run); the file's other entries are unaffected.
// A malformed "mcpServers" itself is a file-level problem.
func serversIn(f *jsonFile, scope Scope, source string) ([]definition, []Problem) {
	ms := f.root.Get("mcpServers")
	if ms == nil || ms.Kind == 'z' {
		return nil, nil
	}
	if ms.Kind != '{' {
		e := jsondoc.Want(ms, "mcpServers", "an object")
		return nil, []Problem{f.problemAt("", e)}
	}
	origin := Origin{Scope: scope, Source: source}
	defs := make([]definition, 0, len(ms.Members))
	for _, m := range ms.Members {
		d := definition{name: m.Key, origin: origin, file: f, node: m.Val}
		cfg, ferr := DecodeServerConfig(jsondoc.Decoder{Doc: f.doc}, m.Val, "")
		d.raw = cfg
		if ferr != nil {
			d.problems = append(d.problems, f.problemAt(m.Key, ferr))
		}
		if err := CheckServerName(m.Key); err != nil {
			line, col := jsondoc.LineCol(f.doc, m.KeyStart)
			d.problems = append(d.problems, Problem{
				File: f.path, Line: line, Col: col, Server: m.Key,
				Message: strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "),
			})
		}
		defs = append(defs, d)
	}
	for _, dup := range ms.Dups {
		for i := range defs {
			if defs[i].name == dup.Key {
				line, col := jsondoc.LineCol(f.doc, dup.KeyStart)
				defs[i].problems = append(defs[i].problems, Problem{
					File: f.path, Line: line, Col: col, Server: dup.Key,
					Message: fmt.Sprintf("duplicate key %q: the server is defined twice in this file", dup.Key),
				})
			}
		}
	}
	return defs, nil
}
