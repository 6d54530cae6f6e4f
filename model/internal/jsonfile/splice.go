package jsonfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// The functions below edit a JSON document in place by splicing bytes, so a
// rewrite changes only the member concerned: every other key keeps its
// position, its formatting and its unknown fields. Each call parses the
// document afresh; configuration files are small.

// SetMember sets the value at an object path (e.g. ["mcpServers", "github"]),
// creating missing intermediate objects. An existing value is replaced where
// it stands; a new member goes at the end of its object.
func SetMember(doc []byte, path []string, value any) ([]byte, error) {
	v, err := jsondoc.MarshalNoEscape(value)
	if err != nil {
		return nil, err
	}
	root, err := jsondoc.Parse(doc)
	if err != nil {
		return nil, err
	}
	obj := root
	for i, key := range path {
		if obj.Kind != '{' {
			return nil, fmt.Errorf("%w: %s is not an object", model.ErrInvalid, strings.Join(path[:i], "."))
		}
		child := obj.Get(key)
		last := i == len(path)-1
		if child == nil || (child.Kind == 'z' && !last) {
			for j := len(path) - 1; j > i; j-- { // wrap value in the missing objects
				w, err := jsondoc.MarshalNoEscape(map[string]json.RawMessage{path[j]: v})
				if err != nil {
					return nil, err
				}
				v = w
			}
			if child != nil { // null placeholder: replace it
				return replaceValue(doc, child, v), nil
			}
			return insertMember(doc, obj, key, v), nil
		}
		if last {
			return replaceValue(doc, child, v), nil
		}
		obj = child
	}
	return doc, nil
}

// DeleteMember removes the member at path; found is false when it is absent.
func DeleteMember(doc []byte, path []string) (out []byte, found bool, err error) {
	root, err := jsondoc.Parse(doc)
	if err != nil {
		return nil, false, err
	}
	obj := root
	for _, key := range path[:len(path)-1] {
		obj = obj.Get(key)
		if obj == nil || obj.Kind != '{' {
			return doc, false, nil
		}
	}
	if obj.Kind != '{' {
		return doc, false, nil
	}
	key := path[len(path)-1]
	for i, m := range obj.Members {
		if m.Key != key {
			continue
		}
		var from, to int
		switch {
		case i+1 < len(obj.Members):
			from, to = m.KeyStart, obj.Members[i+1].KeyStart
		case i > 0:
			from, to = obj.Members[i-1].Val.End, m.Val.End
		default:
			from, to = obj.Start+1, obj.End-1
		}
		return splice(doc, from, to, nil), true, nil
	}
	return doc, false, nil
}

// insertMember adds "key": v at the end of obj, indented like its siblings
// (or one level deeper than the object's line when it is empty).
func insertMember(doc []byte, obj *jsondoc.Node, key string, v []byte) []byte {
	k, _ := jsondoc.MarshalNoEscape(key)
	if len(obj.Members) == 0 {
		outer := lineIndent(doc, obj.Start)
		ind := outer + indentUnit(doc)
		text := "\n" + ind + string(k) + ": " + indentJSON(v, ind, indentUnit(doc)) + "\n" + outer
		return splice(doc, obj.Start+1, obj.End-1, []byte(text))
	}
	last := obj.Members[len(obj.Members)-1]
	ind, ownLine := memberIndent(doc, obj.Members[0].KeyStart)
	var text string
	if ownLine {
		text = ",\n" + ind + string(k) + ": " + indentJSON(v, ind, indentUnit(doc))
	} else {
		text = ", " + string(k) + ": " + string(v)
	}
	return splice(doc, last.Val.End, last.Val.End, []byte(text))
}

// replaceValue puts v where n's value is, indented for the member's line.
func replaceValue(doc []byte, n *jsondoc.Node, v []byte) []byte {
	ind, _ := memberIndent(doc, n.Start)
	return splice(doc, n.Start, n.End, []byte(indentJSON(v, ind, indentUnit(doc))))
}

func splice(doc []byte, from, to int, text []byte) []byte {
	out := make([]byte, 0, len(doc)-(to-from)+len(text))
	out = append(out, doc[:from]...)
	out = append(out, text...)
	return append(out, doc[to:]...)
}

// lineIndent returns the leading whitespace of the line holding offset.
func lineIndent(doc []byte, offset int) string {
	start := bytes.LastIndexByte(doc[:offset], '\n') + 1
	end := start
	for end < len(doc) && (doc[end] == ' ' || doc[end] == '\t') {
		end++
	}
	return string(doc[start:end])
}

// memberIndent returns the indentation of the line holding offset and whether
// offset is the first non-blank byte of its line (a multi-line layout).
func memberIndent(doc []byte, offset int) (string, bool) {
	ind := lineIndent(doc, offset)
	start := bytes.LastIndexByte(doc[:offset], '\n') + 1
	return ind, start+len(ind) == offset
}

// indentUnit guesses the file's indentation step from its first indented
// line ("  " when nothing tells).
func indentUnit(doc []byte) string {
	for _, line := range bytes.Split(doc, []byte{'\n'}) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && len(trimmed) < len(line) {
			return string(line[:len(line)-len(trimmed)])
		}
	}
	return "  "
}

// indentJSON lays out a compact value over several lines, continuing lines
// with prefix ind and one unit per level (the first line is placed by the
// caller).
func indentJSON(v []byte, ind, unit string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, v, ind, unit); err != nil {
		return string(v)
	}
	return b.String()
}
