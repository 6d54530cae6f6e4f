package jsondoc

import (
	"strconv"
	"strings"
)

// Locate finds the value of a field path ("headers.Authorization",
// "args[2]", "oauth.scopes[0]") inside a server node, falling back to the
// deepest part found, so expansion and validation problems can name a line
// and column too. Map keys may themselves contain dots: after "env" or
// "headers" the rest of the path is one key.
func Locate(n *Node, field string) *Node {
	cur := n
	rest := field
	for rest != "" && cur != nil {
		seg := rest
		if i := strings.IndexAny(rest, ".["); i >= 0 {
			seg = rest[:i]
		}
		if seg != "" {
			next := cur.Get(seg)
			if next == nil {
				return cur
			}
			cur, rest = next, rest[len(seg):]
			if (seg == "env" || seg == "headers") && strings.HasPrefix(rest, ".") {
				if v := cur.Get(rest[1:]); v != nil {
					return v
				}
				return cur
			}
		}
		switch {
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
		case strings.HasPrefix(rest, "["):
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return cur
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || cur.Kind != '[' || i < 0 || i >= len(cur.Elems) {
				return cur
			}
			cur, rest = cur.Elems[i], rest[end+1:]
		}
	}
	return cur
}
