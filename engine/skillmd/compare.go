package skillmd

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// Compare compares the SKILL.md frontmatter with the list entry's,
// field by field: the same fields on both sides, scalars equal (a plain
// YAML scalar may stand for the number, boolean or null of the entry),
// nested values present on both sides. It returns why they differ, ""
// when they agree.
func Compare(entry map[string]json.RawMessage, doc string) string {
	file, err := parseFrontmatter(doc)
	if err != nil {
		return "its frontmatter cannot be read: " + err.Error()
	}
	for _, k := range []string{"name", "description"} {
		if _, ok := file[k]; !ok {
			return "its frontmatter has no " + k
		}
	}
	keys := map[string]bool{}
	for k := range entry {
		keys[k] = true
	}
	for k := range file {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		if !sameFront(entry[k], file[k], entry != nil && entry[k] != nil, hasKey(file, k)) {
			diffs = append(diffs, k)
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	sort.Strings(diffs)
	return "its frontmatter differs from the skill list in " + strings.Join(diffs, ", ")
}

func hasKey(m map[string]frontValue, k string) bool { _, ok := m[k]; return ok }

// sameFront compares one field present in the entry (raw), the file (v), or both.
func sameFront(raw json.RawMessage, v frontValue, inEntry, inFile bool) bool {
	if !inEntry || !inFile {
		return false
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
		return v.complex
	}
	if v.complex {
		return false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s == v.text
	}
	if !v.plain {
		return false
	}
	if string(raw) == "null" {
		return v.text == "" || v.text == "~" || v.text == "null"
	}
	return string(raw) == v.text // numbers and booleans, as written
}
