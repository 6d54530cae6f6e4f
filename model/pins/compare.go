package pins

import (
	"cmp"
	"slices"
)

// Status is how an item of a listing stands against what was pinned.
type Status string

// The statuses of a Change.
const (
	// StatusNew is an item the pins do not hold: withheld until reviewed.
	StatusNew Status = "new"
	// StatusChanged is an item whose hash differs from its pin: withheld
	// until reviewed.
	StatusChanged Status = "changed"
	// StatusRemoved is a pinned item the server no longer lists: it just
	// goes.
	StatusRemoved Status = "removed"
	// StatusLock is an item its pin accepts but the repository's lock
	// file does not (another hash, or not in it): withheld until the
	// person reviews it.
	StatusLock Status = "differs from lock"
)

// Change is one item that is not as pinned.
type Change struct {
	Kind   Kind   `json:"kind"`
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Lock says the item also differs from the lock file (with
	// StatusLock always).
	Lock bool `json:"lock,omitempty"`
	// Withheld says the item is not offered and not called until the
	// person accepts it.
	Withheld bool  `json:"withheld"`
	Old      *Item `json:"old,omitempty"` // the pin, nil for a new item
	New      *Item `json:"new,omitempty"` // the listing's, nil for a removed one
}

// Record is the person's own pins of one server definition.
type Record struct {
	Items []Item `json:"items"`
}

// index is the record by key.
func (r *Record) index() map[key]*Item {
	m := make(map[key]*Item, len(r.Items))
	for i := range r.Items {
		if _, dup := m[r.Items[i].key()]; !dup {
			m[r.Items[i].key()] = &r.Items[i]
		}
	}
	return m
}

// Compare says how the listing cur, whose kinds listed were fetched,
// stands against the person's pins rec (nil: none yet, the first listing)
// and the repository's lock entry for the server (nil: none). An item is
// withheld when it is new or changed since its pin, or when the lock file
// holds another hash for it (or does not hold it) and the person did not
// accept it in a review. The lock file only adds drift: it cannot make an
// item pass that the person's pins withhold. Changes come sorted by kind,
// then name.
func Compare(rec *Record, cur []Item, listed map[Kind]bool, lock *LockServer) []Change {
	var out []Change
	var pinned map[key]*Item
	if rec != nil {
		pinned = rec.index()
	}
	seen := make(map[key]bool, len(cur))
	for i := range cur {
		it := &cur[i]
		if seen[it.key()] {
			continue
		}
		seen[it.key()] = true
		c := Change{Kind: it.Kind, Name: it.Name, New: it}
		p := pinned[it.key()]
		switch {
		case rec == nil:
		case p == nil:
			c.Status = StatusNew
		case p.Hash != it.Hash:
			c.Status, c.Old = StatusChanged, p
		}
		if lock != nil && lock.Hash(it.Kind, it.Name) != it.Hash && (p == nil || p.Hash != it.Hash || !p.Reviewed) {
			c.Lock = true
			if c.Status == "" {
				c.Status, c.Old = StatusLock, p
			}
		}
		if c.Status != "" {
			c.Withheld = true
			out = append(out, c)
		}
	}
	if rec != nil {
		for i := range rec.Items {
			p := &rec.Items[i]
			if listed[p.Kind] && !seen[p.key()] {
				seen[p.key()] = true
				out = append(out, Change{Kind: p.Kind, Name: p.Name, Status: StatusRemoved, Old: p})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int {
		return cmp.Or(cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)), cmp.Compare(a.Name, b.Name))
	})
	return out
}

func kindOrder(k Kind) int {
	if i := slices.Index(Kinds[:], k); i >= 0 {
		return i
	}
	return len(Kinds)
}

// First is the record of a first listing: every item pinned as listed,
// none reviewed.
func First(cur []Item) Record {
	return bound(Record{Items: slices.Clone(cur)})
}

// Accept is rec with the person's acceptance of the items of cur for which
// accept says yes (by kind and name): each is pinned as listed and
// reviewed, a removed one is dropped; the kinds listed were fetched. Pins
// of items not accepted stay as they were.
func Accept(rec *Record, cur []Item, listed map[Kind]bool, accept func(Kind, string) bool) Record {
	var out Record
	curByKey := make(map[key]*Item, len(cur))
	for i := range cur {
		if _, dup := curByKey[cur[i].key()]; !dup {
			curByKey[cur[i].key()] = &cur[i]
		}
	}
	ok := func(k key) bool { return accept(k.kind, k.name) }
	done := map[key]bool{}
	if rec != nil {
		for _, p := range rec.Items {
			k := p.key()
			if done[k] {
				continue
			}
			done[k] = true
			c, listedNow := curByKey[k]
			switch {
			case !ok(k):
				out.Items = append(out.Items, p)
			case listedNow:
				it := *c
				it.Reviewed = true
				out.Items = append(out.Items, it)
			case !listed[k.kind]:
				out.Items = append(out.Items, p)
			}
		}
	}
	for _, c := range cur {
		k := c.key()
		if done[k] || !ok(k) {
			continue
		}
		done[k] = true
		c.Reviewed = true
		out.Items = append(out.Items, c)
	}
	return bound(out)
}

// MaxRecordText bounds the texts one Record keeps, bytes: past it, items
// keep their hash and lose their texts (the diff then says so).
const MaxRecordText = 4 << 20

// MaxRecordItems bounds the items one Record keeps.
const MaxRecordItems = 20000

// bound keeps r within MaxRecordItems and MaxRecordText.
func bound(r Record) Record {
	if len(r.Items) > MaxRecordItems {
		r.Items = r.Items[:MaxRecordItems]
	}
	total := 0
	for i := range r.Items {
		it := &r.Items[i]
		n := len(it.Title) + len(it.Description) + len(it.Schema) + len(it.Output) + len(it.Annotations)
		if total+n > MaxRecordText {
			it.Title, it.Description, it.Schema, it.Output, it.Annotations = "", "", "", "", ""
			it.Cut = true
			continue
		}
		total += n
	}
	return r
}
