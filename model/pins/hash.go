package pins

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
)

// Hasher turns what a server sent into Items. It reuses its buffers, so
// one Hasher per listing hashes hundreds of tools with few allocations; it
// is not safe for concurrent use.
type Hasher struct {
	c    canonicalizer
	buf  []byte // the framed fields the hash covers
	h    hash.Hash
	sum  [sha256.Size]byte
	hexd [2 * sha256.Size]byte
}

// NewHasher returns a Hasher.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// field tags in the framing the hash covers: a tag byte, the length (a
// uvarint for texts, four bytes for JSON), the bytes. Framing, not concatenation: no two different items
// hash alike by moving text from one field into the next.
const (
	tagName byte = iota + 1
	tagTitle
	tagDescription
	tagInput
	tagOutput
	tagAnnotations
	tagArguments
	tagURI
	tagMIME
	tagBroken // a JSON value that is not valid JSON: hashed as sent
)

func (h *Hasher) start(k Kind) {
	h.buf = append(h.buf[:0], k...)
	h.buf = append(h.buf, 0)
}

func (h *Hasher) text(tag byte, s string) {
	if s == "" {
		return
	}
	h.buf = append(h.buf, tag)
	h.buf = binary.AppendUvarint(h.buf, uint64(len(s)))
	h.buf = append(h.buf, s...)
}

// json frames a JSON value by its canonical form, written straight into
// the framing (its length a fixed four bytes, filled in after), and
// returns that form (nil when raw is empty or null); a value that is not
// JSON is framed as sent, under its own tag.
func (h *Hasher) json(tag byte, raw json.RawMessage) []byte {
	start := len(h.buf)
	h.buf = append(h.buf, tag, 0, 0, 0, 0)
	buf, err := h.c.canonical(h.buf, raw)
	h.buf = buf
	can := h.buf[start+5:]
	switch {
	case err != nil:
		h.buf = h.buf[:start]
		h.text(tagBroken, string(raw))
		return raw
	case len(can) == 0 || string(can) == "null":
		h.buf = h.buf[:start]
		return nil
	}
	binary.BigEndian.PutUint32(h.buf[start+1:], uint32(len(can)))
	return can
}

func (h *Hasher) finish() string {
	h.h.Reset()
	h.h.Write(h.buf)
	hex.Encode(h.hexd[:], h.h.Sum(h.sum[:0]))
	return string(h.hexd[:])
}

// keep stores text bounded by n into *dst, marking it cut when it was
// longer.
func keep(it *Item, dst *string, s string, n int) {
	var cut bool
	*dst, cut = clip(s, n)
	it.Cut = it.Cut || cut
}

// Tool pins a tool: name, title, description, input and output schema and
// annotations.
func (h *Hasher) Tool(t Tool) Item {
	it := Item{Kind: KindTool, Name: t.Name}
	h.start(KindTool)
	h.text(tagName, t.Name)
	h.text(tagTitle, t.Title)
	h.text(tagDescription, t.Description)
	keep(&it, &it.Title, t.Title, MaxText)
	keep(&it, &it.Description, t.Description, MaxText)
	keep(&it, &it.Schema, string(h.json(tagInput, t.InputSchema)), MaxSchema)
	keep(&it, &it.Output, string(h.json(tagOutput, t.OutputSchema)), MaxSchema)
	keep(&it, &it.Annotations, string(h.json(tagAnnotations, t.Annotations)), MaxSchema)
	it.Hash = h.finish()
	return it
}

// Prompt pins a prompt: name, title, description and its arguments.
func (h *Hasher) Prompt(p Prompt) Item {
	it := Item{Kind: KindPrompt, Name: p.Name}
	h.start(KindPrompt)
	h.text(tagName, p.Name)
	h.text(tagTitle, p.Title)
	h.text(tagDescription, p.Description)
	keep(&it, &it.Title, p.Title, MaxText)
	keep(&it, &it.Description, p.Description, MaxText)
	if len(p.Arguments) > 0 {
		raw, _ := json.Marshal(p.Arguments) // strings and bools: cannot fail
		keep(&it, &it.Schema, string(h.json(tagArguments, raw)), MaxSchema)
	}
	it.Hash = h.finish()
	return it
}

// Template pins a resource template: name, title, description, URI
// template and MIME type.
func (h *Hasher) Template(t Template) Item {
	it := Item{Kind: KindTemplate, Name: t.Name}
	h.start(KindTemplate)
	h.text(tagName, t.Name)
	h.text(tagTitle, t.Title)
	h.text(tagDescription, t.Description)
	h.text(tagURI, t.URITemplate)
	h.text(tagMIME, t.MIMEType)
	keep(&it, &it.Title, t.Title, MaxText)
	keep(&it, &it.Description, t.Description, MaxText)
	raw, _ := json.Marshal(map[string]string{"uriTemplate": t.URITemplate, "mimeType": t.MIMEType})
	can, _ := h.c.canonical(nil, raw)
	keep(&it, &it.Schema, string(can), MaxSchema)
	it.Hash = h.finish()
	return it
}

// Instructions pins the instructions a server gives at start; "" has no
// item.
func (h *Hasher) Instructions(text string) (Item, bool) {
	if text == "" {
		return Item{}, false
	}
	it := Item{Kind: KindInstructions}
	h.start(KindInstructions)
	h.text(tagDescription, text)
	keep(&it, &it.Description, text, MaxText)
	it.Hash = h.finish()
	return it, true
}
