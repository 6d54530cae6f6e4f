package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpdeck/mcpdeck/engine/skillmd"
)

// SkillsExtension is the capability key under which a server offers skills:
// skills/list names them, and their files are resources read on load.
const SkillsExtension = "io.modelcontextprotocol/skills"

const (
	maxSkillFiles = 512              // files one skill may list
	maxSkillBytes = 16 * 1024 * 1024 // all files of one skill together
	skillManifest = "SKILL.md"
)

// Skill is one entry of a server's skills/list: what the person sees before
// loading it. Files are only listed here; none is read until LoadSkill.
type Skill struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	URI         string      `json:"uri"`
	Files       []SkillFile `json:"files,omitempty"`
	// Problem says why the entry cannot be loaded (no digests, a file
	// outside the skill, too many or too large files); empty when loadable.
	Problem string `json:"problem,omitempty"`
	// front is the entry's frontmatter as the server sent it, compared
	// field by field with the SKILL.md frontmatter on load.
	front map[string]json.RawMessage
}

// SkillFile is one file a skill lists, with the size and digest its content
// must have.
type SkillFile struct {
	URI    string `json:"uri"`
	Size   int64  `json:"size"`
	Digest string `json:"digest"`
}

// TotalSize is the sum of the listed file sizes.
func (s Skill) TotalSize() int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

// wireSkill is a skills/list entry as sent.
type wireSkill struct {
	URI         string                     `json:"uri"`
	Frontmatter map[string]json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage            `json:"resources"`
}

type wireSkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   *int64 `json:"size"`
}

// offersSkills reports whether the server declared the skills extension.
func offersSkills(init *mcp.InitializeResult) bool {
	if init == nil {
		return false
	}
	_, ok := init.Capabilities.Extensions[SkillsExtension]
	return ok
}

// fetchSkillsPage requests one page of skills/list into out.
func fetchSkillsPage(ctx context.Context, c *client.Client, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	params := map[string]any{}
	if cursor != "" {
		params["cursor"] = cursor
	}
	var r struct {
		Skills     []wireSkill `json:"skills"`
		NextCursor mcp.Cursor  `json:"nextCursor"`
	}
	if err := extensionRequest(ctx, c, "skills/list", params, &r); err != nil {
		return "", err
	}
	for _, w := range r.Skills {
		if len(out.skills) >= maxListItems {
			return "", errTooMany
		}
		s := convertSkill(w)
		out.size += len(s.URI) + len(s.Name) + len(s.Description)
		for _, f := range s.Files {
			out.size += len(f.URI) + len(f.Digest)
		}
		out.skills = append(out.skills, s)
	}
	return r.NextCursor, nil
}

// convertSkill turns a wire entry into a Skill, recording in Problem why it
// cannot be loaded rather than dropping it.
func convertSkill(w wireSkill) Skill {
	s := Skill{URI: w.URI, front: w.Frontmatter}
	s.Name = frontString(w.Frontmatter, "name")
	if s.Name == "" {
		s.Name = skillNameFromURI(w.URI)
	}
	s.Name = sanitize(s.Name)
	s.Description = capText(frontString(w.Frontmatter, "description"))
	dir, ok := strings.CutSuffix(w.URI, "/"+skillManifest)
	if !ok {
		s.Problem = "its uri does not name a " + skillManifest
		return s
	}
	var files []wireSkillFile
	if err := json.Unmarshal(w.Resources, &files); err != nil {
		s.Problem = "the server lists no file sizes and digests for it"
		return s
	}
	if len(files) > maxSkillFiles {
		s.Problem = fmt.Sprintf("it lists %d files, more than %d", len(files), maxSkillFiles)
		files = files[:maxSkillFiles]
	}
	manifest := false
	for _, f := range files {
		sf := SkillFile{URI: f.URI, Digest: f.Digest}
		if f.Size != nil {
			sf.Size = *f.Size
		}
		s.Files = append(s.Files, sf)
		switch {
		case s.Problem != "":
		case f.Size == nil || *f.Size < 0:
			s.Problem = "file " + f.URI + " has no size"
		case !skillmd.ValidDigest(f.Digest):
			s.Problem = "file " + f.URI + " has no sha256 digest"
		case !strings.HasPrefix(f.URI, dir+"/"):
			s.Problem = "file " + f.URI + " lies outside the skill"
		}
		manifest = manifest || f.URI == w.URI
	}
	switch {
	case s.Problem != "":
	case !manifest:
		s.Problem = "its file list does not include " + skillManifest
	case s.TotalSize() > maxSkillBytes:
		s.Problem = fmt.Sprintf("its files total %d bytes, more than %d", s.TotalSize(), maxSkillBytes)
	}
	return s
}

// frontString returns a string field of the entry frontmatter, "" otherwise.
func frontString(f map[string]json.RawMessage, key string) string {
	var s string
	if raw, ok := f[key]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// skillNameFromURI is the path segment before SKILL.md.
func skillNameFromURI(uri string) string {
	dir, ok := strings.CutSuffix(uri, "/"+skillManifest)
	if !ok {
		return uri
	}
	return dir[strings.LastIndexByte(dir, '/')+1:]
}

// extensionRequest sends a request mcp-go has no method for, on the
// client's transport, with the per-request metadata and headers the
// negotiated protocol asks for. Its id is a random string, so it never
// collides with the numeric ids the client hands out.
func extensionRequest(ctx context.Context, c *client.Client, method string, params map[string]any, out any) error {
	version := c.ProtocolVersion()
	var header http.Header
	if mcp.RequiresStandardHeaders(version) {
		params["_meta"] = map[string]any{mcp.MetaKeyProtocolVersion: version}
		raw, err := json.Marshal(params)
		if err != nil {
			return err
		}
		header = http.Header{}
		for k, v := range mcp.StandardHeaders(version, mcp.MCPMethod(method), raw) {
			header.Set(k, v)
		}
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId("mcpdeck-" + hex.EncodeToString(id[:])),
		Method:  method,
		Params:  params,
		Header:  header,
	})
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return resp.Error.AsError()
	}
	if err := json.Unmarshal(resp.Result, out); err != nil {
		return fmt.Errorf("the server's %s answer is not valid: %w", method, err)
	}
	return nil
}
