package pins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// LockFileName is the lock file a team commits beside its .mcp.json.
const LockFileName = ".mcp.lock.json"

// LockVersion is the lockfileVersion this mcpdeck writes and reads.
const LockVersion = 1

// Limits on a lock file: it comes from the repository.
const (
	MaxLockSize    = 4 << 20
	maxLockServers = 1000
)

// The members of a lock file's server entry, by Kind.
var lockKeys = map[Kind]string{
	KindTool: "tools", KindPrompt: "prompts", KindTemplate: "resourceTemplates", KindInstructions: "instructions",
}

// Lock is a repository's lock file: per project server, the hash of each
// thing it tells a model. It is the repository's data: it can only make
// mcpdeck stricter (Compare), never accept, approve or allow anything.
type Lock struct {
	Servers map[string]*LockServer
}

// LockServer is one server's entry of a lock file.
type LockServer struct {
	// ServerName and ServerVersion are the serverInfo the server gave when
	// the file was written, for people reading it.
	ServerName, ServerVersion string
	hashes                    map[key]string
}

// NewLockServer is the lock entry of a server that lists items.
func NewLockServer(name, version string, items []Item) *LockServer {
	s := &LockServer{ServerName: name, ServerVersion: version, hashes: map[key]string{}}
	for _, it := range items {
		if _, dup := s.hashes[it.key()]; !dup {
			s.hashes[it.key()] = it.Hash
		}
	}
	return s
}

// Hash is the hash the entry holds for an item, "" when it holds none.
func (s *LockServer) Hash(k Kind, name string) string { return s.hashes[key{k, name}] }

// Drift is every item of the listing cur (of the kinds listed) that is not
// as the entry says: new, changed, or gone (StatusRemoved), sorted like
// Compare's changes.
func (s *LockServer) Drift(cur []Item, listed map[Kind]bool) []Change {
	var rec Record
	for k, h := range s.hashes {
		rec.Items = append(rec.Items, Item{Kind: k.kind, Name: k.name, Hash: h})
	}
	changes := Compare(&rec, cur, listed, nil)
	for i := range changes {
		changes[i].Old, changes[i].Withheld = nil, false
	}
	return changes
}

// lockJSON is the file's shape when written.
type lockJSON struct {
	Version int                       `json:"lockfileVersion"`
	Servers map[string]map[string]any `json:"mcpServers"`
}

// Encode writes the lock file: keys sorted, two-space indents, so that a
// regenerated file differs from the committed one only where servers did.
func (l *Lock) Encode() []byte {
	out := lockJSON{Version: LockVersion, Servers: map[string]map[string]any{}}
	for name, s := range l.Servers {
		m := map[string]any{}
		if s.ServerName != "" || s.ServerVersion != "" {
			m["serverInfo"] = map[string]string{"name": s.ServerName, "version": s.ServerVersion}
		}
		for k, h := range s.hashes {
			if k.kind == KindInstructions {
				m[lockKeys[k.kind]] = h
				continue
			}
			sub, _ := m[lockKeys[k.kind]].(map[string]string)
			if sub == nil {
				sub = map[string]string{}
				m[lockKeys[k.kind]] = sub
			}
			sub[k.name] = h
		}
		out.Servers[name] = m
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out) // maps of strings: cannot fail
	return b.Bytes()
}

// DecodeLock reads a lock file strictly and bounded: a value of the wrong
// type, a malformed hash, a duplicate key or a member the format does not
// have is a problem naming it and is ignored (a member such as "approved"
// or "pinTools" is never obeyed: a lock file only pins). A hash that is
// not one still pins its item: no listing matches it. Nil when nothing of
// the file can be used.
func DecodeLock(doc []byte) (*Lock, []string) {
	if len(doc) > MaxLockSize {
		return nil, []string{fmt.Sprintf("the file is larger than %d MB; ignored", MaxLockSize>>20)}
	}
	root, err := jsondoc.Parse(doc)
	if err != nil {
		return nil, []string{"not valid JSON: " + err.Error()}
	}
	if root.Kind != '{' {
		return nil, []string{"not a JSON object"}
	}
	d := lockDecoder{doc: doc}
	d.dups(root, "")
	var servers *jsondoc.Node
	for _, m := range root.Members {
		switch m.Key {
		case "lockfileVersion":
			if m.Val.Kind != 'n' || string(doc[m.Val.Start:m.Val.End]) != fmt.Sprint(LockVersion) {
				return nil, []string{fmt.Sprintf("lockfileVersion %s is not %d, the version this mcpdeck reads", doc[m.Val.Start:m.Val.End], LockVersion)}
			}
		case "mcpServers":
			servers = m.Val
		default:
			d.unknown(m.Key)
		}
	}
	l := &Lock{Servers: map[string]*LockServer{}}
	if servers == nil || servers.Kind != '{' {
		d.problem("mcpServers", "want an object")
		return l, d.probs
	}
	d.dups(servers, "mcpServers")
	for i, m := range servers.Members {
		if i == maxLockServers {
			d.problem("mcpServers", fmt.Sprintf("more than %d servers; the rest are ignored", maxLockServers))
			break
		}
		if s := d.server(m.Val, "mcpServers."+m.Key); s != nil {
			l.Servers[m.Key] = s
		}
	}
	return l, d.probs
}

// lockDecoder gathers a lock file's problems.
type lockDecoder struct {
	doc   []byte
	probs []string
}

func (d *lockDecoder) problem(field, msg string) {
	d.probs = append(d.probs, fmt.Sprintf("%s: %s", field, msg))
}

func (d *lockDecoder) unknown(field string) {
	d.problem(field, "not a lock file member; ignored (a lock file pins what servers say: it cannot approve, accept or allow anything)")
}

func (d *lockDecoder) dups(n *jsondoc.Node, field string) {
	for _, m := range n.Dups {
		d.problem(jsondoc.JoinField(field, m.Key), "given twice; the first is used")
	}
}

func (d *lockDecoder) server(n *jsondoc.Node, field string) *LockServer {
	if n.Kind != '{' {
		d.problem(field, "want an object")
		return nil
	}
	d.dups(n, field)
	s := &LockServer{hashes: map[key]string{}}
	byKey := map[string]Kind{}
	for k, v := range lockKeys {
		byKey[v] = k
	}
	for _, m := range n.Members {
		f := field + "." + m.Key
		kind, isKind := byKey[m.Key]
		switch {
		case m.Key == "serverInfo":
			d.serverInfo(s, m.Val, f)
		case kind == KindInstructions:
			if m.Val.Kind != 's' {
				d.problem(f, "want a hash")
				continue
			}
			s.hashes[key{kind, ""}] = d.hash(m.Val.Str, f)
		case isKind:
			d.hashes(s, kind, m.Val, f)
		default:
			d.unknown(f)
		}
	}
	return s
}

func (d *lockDecoder) serverInfo(s *LockServer, n *jsondoc.Node, f string) {
	if n.Kind != '{' {
		d.problem(f, "want an object")
		return
	}
	if v := n.Get("name"); v != nil && v.Kind == 's' {
		s.ServerName = v.Str
	}
	if v := n.Get("version"); v != nil && v.Kind == 's' {
		s.ServerVersion = v.Str
	}
}

func (d *lockDecoder) hashes(s *LockServer, kind Kind, n *jsondoc.Node, f string) {
	if n.Kind != '{' {
		d.problem(f, "want an object of names and hashes")
		return
	}
	d.dups(n, f)
	for i, m := range n.Members {
		if i == MaxRecordItems {
			d.problem(f, fmt.Sprintf("more than %d entries; the rest are ignored", MaxRecordItems))
			return
		}
		if m.Val.Kind != 's' {
			d.problem(f+"."+m.Key, "want a hash")
			continue
		}
		s.hashes[key{kind, m.Key}] = d.hash(m.Val.Str, f+"."+m.Key)
	}
}

// hash checks that h looks like a hash this mcpdeck writes.
func (d *lockDecoder) hash(h, f string) string {
	if len(h) != 64 || !isLowerHex(h) {
		d.problem(f, "not a hash mcpdeck writes (64 lowercase hex digits); the item matches nothing")
	}
	return h
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ReadLock reads the lock file at path: nil, nil, nil when there is none.
// Only a regular file is read (after links), at most MaxLockSize bytes.
func ReadLock(path string) (*Lock, []string, error) {
	f, prob := jsonfile.Read(path)
	if prob != nil {
		return nil, nil, errors.New(prob.Error())
	}
	if f == nil {
		return nil, nil, nil
	}
	l, probs := DecodeLock(f.Doc)
	return l, probs, nil
}
