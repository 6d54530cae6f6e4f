package engine

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpdeck/mcpdeck/engine/skillmd"
)

var (
	// ErrUnknownSkill is a skill name the server does not list.
	ErrUnknownSkill = errors.New("no such skill")
	// ErrSkillRefused is a skill that was not loaded because it cannot be
	// verified or a file does not match its list entry.
	ErrSkillRefused = errors.New("skill refused")
)

// SkillError names the server, skill and file a load was refused for.
type SkillError struct {
	Server, Skill, File, Reason string
}

func (e *SkillError) Error() string {
	where := fmt.Sprintf("skill %s on %s", e.Skill, e.Server)
	if e.File != "" {
		where += ", file " + e.File
	}
	return fmt.Sprintf("refusing to load %s: %s", where, e.Reason)
}

// Is makes errors.Is(err, ErrSkillRefused) hold.
func (e *SkillError) Is(target error) bool { return target == ErrSkillRefused }

// LoadedSkill is a skill whose every file matched its list entry.
type LoadedSkill struct {
	Skill
	// Manifest is the SKILL.md text, as the server sent it.
	Manifest string `json:"manifest"`
	// Contents holds every listed file's bytes, by URI.
	Contents map[string][]byte `json:"-"`
}

// skillParts loads a listed skill: every file read and checked against
// the server's list entry (engine/skillmd) before any of it is returned.
type skillParts struct{ e *Engine }

// LoadSkill reads the files of the named skill (its name, or the URI of its
// SKILL.md) and verifies each against the entry the server listed: size,
// then sha256 digest, and the SKILL.md frontmatter field by field. SKILL.md
// is read first and nothing more is read once a file fails; on any mismatch
// nothing is returned.
func (e *Engine) LoadSkill(ctx context.Context, server, name string) (LoadedSkill, error) {
	return e.skills.load(ctx, server, name)
}

// load runs LoadSkill.
func (p *skillParts) load(ctx context.Context, server, name string) (LoadedSkill, error) {
	c := p.e.calls
	var t callTarget
	var matches []Skill
	err := p.e.withEntry(server, func(en *entry) (err error) {
		if t, err = targetLocked(en); err != nil {
			return err
		}
		for _, s := range en.lists.skills {
			if s.Name == name || s.URI == name {
				matches = append(matches, s)
			}
		}
		return nil
	})
	if err != nil {
		return LoadedSkill{}, err
	}
	switch len(matches) {
	case 0:
		return LoadedSkill{}, fmt.Errorf("%w: %s does not list a skill named %s", ErrUnknownSkill, server, name)
	case 1:
	default:
		return LoadedSkill{}, fmt.Errorf("%w: %s lists %d skills named %s; name one by the uri of its SKILL.md", ErrUnknownSkill, server, len(matches), name)
	}
	sk := matches[0]
	refuse := func(file, reason string) error {
		return &SkillError{Server: server, Skill: sk.Name, File: file, Reason: reason}
	}
	if sk.Problem != "" {
		return LoadedSkill{}, refuse("", sk.Problem)
	}
	files := append([]SkillFile(nil), sk.Files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].URI == sk.URI && files[j].URI != sk.URI })
	ctx, cancel := c.withToolTimeout(ctx)
	defer cancel()
	out := LoadedSkill{Skill: sk, Contents: make(map[string][]byte, len(files))}
	for _, f := range files {
		body, err := readSkillFile(ctx, c, t, f.URI)
		if err != nil {
			return LoadedSkill{}, c.callError(ctx, server, "reading "+f.URI+" of skill "+sk.Name, err)
		}
		if reason := skillmd.Verify(f.Size, f.Digest, body); reason != "" {
			return LoadedSkill{}, refuse(f.URI, reason)
		}
		if f.URI == sk.URI {
			if reason := skillmd.Compare(sk.front, string(body)); reason != "" {
				return LoadedSkill{}, refuse(f.URI, reason)
			}
			out.Manifest = string(body)
		}
		out.Contents[f.URI] = body
	}
	return out, nil
}

// readSkillFile reads one resource and returns its bytes: the text as
// UTF-8, or the decoded blob.
func readSkillFile(ctx context.Context, c *callParts, t callTarget, uri string) ([]byte, error) {
	res, err := c.readResource(ctx, t, uri)
	if err != nil {
		return nil, err
	}
	var found []byte
	n := 0
	for _, c := range res.Contents {
		var b []byte
		var u string
		switch v := c.(type) {
		case mcp.TextResourceContents:
			b, u = []byte(v.Text), v.URI
		case mcp.BlobResourceContents:
			d, err := base64.StdEncoding.DecodeString(v.Blob)
			if err != nil {
				return nil, fmt.Errorf("the content of %s is not valid base64: %w", uri, err)
			}
			b, u = d, v.URI
		default:
			continue
		}
		if u == uri || u == "" {
			found = b
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("the server sent %d contents for %s, not one", n, uri)
	}
	return found, nil
}
