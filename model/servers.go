package model

import (
	"fmt"
	"strings"
)

// definition is one server entry found in one file, before merging.
type definition struct {
	name     string
	origin   Origin
	raw      ServerConfig
	problems []Problem
	file     *jsonFile // where it was read, to locate later problems
	node     *node
	dir      string // what a relative cwd is relative to; "" = the source's directory
}

// serversIn extracts the "mcpServers" object of a parsed file. A malformed
// entry becomes a definition carrying a Problem (so it is listed, not
// silently dropped, and cannot run); the file's other entries are unaffected.
// A malformed "mcpServers" itself is a file-level problem.
func serversIn(f *jsonFile, scope Scope, source string) ([]definition, []Problem) {
	ms := f.root.get("mcpServers")
	if ms == nil || ms.kind == 'z' {
		return nil, nil
	}
	if ms.kind != '{' {
		e := want(ms, "mcpServers", "an object")
		return nil, []Problem{f.problemAt("", e)}
	}
	origin := Origin{Scope: scope, Source: source}
	defs := make([]definition, 0, len(ms.members))
	for _, m := range ms.members {
		d := definition{name: m.key, origin: origin, file: f, node: m.val}
		cfg, ferr := DecodeServerConfig(decoder{f.doc}, m.val, "")
		d.raw = cfg
		if ferr != nil {
			d.problems = append(d.problems, f.problemAt(m.key, ferr))
		}
		if err := CheckServerName(m.key); err != nil {
			line, col := lineCol(f.doc, m.keyStart)
			d.problems = append(d.problems, Problem{
				File: f.path, Line: line, Col: col, Server: m.key,
				Message: strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "),
			})
		}
		defs = append(defs, d)
	}
	for _, dup := range ms.dups {
		for i := range defs {
			if defs[i].name == dup.key {
				line, col := lineCol(f.doc, dup.keyStart)
				defs[i].problems = append(defs[i].problems, Problem{
					File: f.path, Line: line, Col: col, Server: dup.key,
					Message: fmt.Sprintf("duplicate key %q: the server is defined twice in this file", dup.key),
				})
			}
		}
	}
	return defs, nil
}
