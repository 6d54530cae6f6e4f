// Package pins is what a server tells a model, pinned: each tool (name,
// title, description, input and output schema, annotations), prompt,
// resource template and the server's instructions as an Item with a hash
// of its canonical form, so that key order, whitespace and string escapes
// change nothing and every other change does (hash.go, canon.go). Compare
// says which items of a listing are new, changed or gone against the
// person's own pins and a repository's lock file (compare.go); a lock file
// can only add drift, never accept or allow anything (lockfile.go). Texts
// are kept bounded so that a change can be shown as a diff (diff.go).
// Pure: no I/O but reading the one lock file it is handed.
package pins
