// Package skilltest is a loopback MCP server offering skills, for tests of
// the skills extension: it lists two skills, serves their files as
// resources, counts every file read, and can tamper with a file.
package skilltest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// The two skills and their files.
const (
	AlphaURI   = "skill://alpha/SKILL.md"
	AlphaForms = "skill://alpha/references/FORMS.md"
	BetaURI    = "skill://beta/SKILL.md"
	AlphaBody  = "---\nname: alpha\ndescription: Fill in forms\n---\nAlpha body.\n"
	FormsBody  = "Forms reference.\n"
	BetaBody   = "---\nname: beta\ndescription: >\n  Summarise long\n  documents\n---\nBeta body.\n"
)

// Server is the loopback server. Its list always describes the original
// files; Serve and ListAlphaDescription make what it serves differ.
type Server struct {
	HTTP *httptest.Server

	mu               sync.Mutex
	files            map[string]string
	reads            map[string]int
	alphaDescription string // when set, alpha's description in the list
}

// New starts a server; Close it when done.
func New() *Server {
	s := &Server{
		files: map[string]string{AlphaURI: AlphaBody, AlphaForms: FormsBody, BetaURI: BetaBody},
		reads: map[string]int{},
	}
	s.HTTP = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the server.
func (s *Server) Close() { s.HTTP.Close() }

// Serve makes uri serve body from now on, without changing the list.
func (s *Server) Serve(uri, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[uri] = body
}

// ListAlphaDescription makes the list give alpha another description.
func (s *Server) ListAlphaDescription(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alphaDescription = d
}

// Reads returns how often each URI was read.
func (s *Server) Reads() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.reads))
	for k, v := range s.reads {
		out[k] = v
	}
	return out
}

func entry(uri, description string, bodies map[string]string, uris ...string) map[string]any {
	var files []map[string]any
	for _, u := range uris {
		sum := sha256.Sum256([]byte(bodies[u]))
		files = append(files, map[string]any{"uri": u, "size": len(bodies[u]), "digest": "sha256:" + hex.EncodeToString(sum[:])})
	}
	name := uri[len("skill://"):]
	name = name[:len(name)-len("/SKILL.md")]
	return map[string]any{"uri": uri, "frontmatter": map[string]any{"name": name, "description": description}, "resources": files}
}

// original are the bodies the list describes.
var original = map[string]string{AlphaURI: AlphaBody, AlphaForms: FormsBody, BetaURI: BetaBody}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result any
	s.mu.Lock()
	switch req.Method {
	case "initialize":
		result = map[string]any{
			"protocolVersion": "2025-11-25",
			"serverInfo":      map[string]any{"name": "skills", "version": "1"},
			"capabilities":    map[string]any{"resources": map[string]any{}, "extensions": map[string]any{"io.modelcontextprotocol/skills": map[string]any{}}},
		}
	case "resources/list":
		result = map[string]any{"resources": []any{}}
	case "resources/templates/list":
		result = map[string]any{"resourceTemplates": []any{}}
	case "skills/list":
		d := s.alphaDescription
		if d == "" {
			d = "Fill in forms"
		}
		result = map[string]any{"skills": []any{
			entry(AlphaURI, d, original, AlphaURI, AlphaForms),
			entry(BetaURI, "Summarise long documents\n", original, BetaURI),
		}}
	case "resources/read":
		s.reads[req.Params.URI]++
		result = map[string]any{"contents": []any{map[string]any{"uri": req.Params.URI, "mimeType": "text/markdown", "text": s.files[req.Params.URI]}}}
	default:
		result = map[string]any{}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}
