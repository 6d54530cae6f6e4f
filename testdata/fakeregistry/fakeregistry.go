// Package fakeregistry is a local stand-in for the MCP Registry API
// (v0.1) serving server.json documents in the registry's own format, so
// tests never reach the internet.
package fakeregistry

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Servers are the server.json documents served, in listing order.
var Servers = []string{
	`{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json","name":"io.github.modelcontextprotocol/server-filesystem","description":"Secure file operations with configurable access controls","version":"2026.1.14","repository":{"url":"https://github.com/modelcontextprotocol/servers","source":"github"},"packages":[{"registryType":"npm","registryBaseUrl":"https://registry.npmjs.org","identifier":"@modelcontextprotocol/server-filesystem","version":"2026.1.14","transport":{"type":"stdio"},"packageArguments":[{"type":"positional","value":"/tmp","valueHint":"directory"}]}]}`,
	`{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json","name":"io.github.github/github-mcp-server","description":"Connect AI assistants to GitHub - manage repos, issues, PRs, and workflows","version":"0.24.0","remotes":[{"type":"streamable-http","url":"https://api.githubcopilot.com/mcp/","headers":[{"name":"Authorization","description":"GitHub personal access token, as Bearer TOKEN","isRequired":true,"isSecret":true}]}],"packages":[{"registryType":"oci","identifier":"ghcr.io/github/github-mcp-server","version":"0.24.0","transport":{"type":"stdio"},"environmentVariables":[{"name":"GITHUB_PERSONAL_ACCESS_TOKEN","description":"GitHub personal access token","isRequired":true,"isSecret":true}]}]}`,
	// Everything is the npm package installed in testdata/npm, so a test can
	// install it from here and run it offline.
	`{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.modelcontextprotocol/server-everything","title":"Everything","description":"MCP server that exercises all the features of the MCP protocol","version":"2026.8.31","packages":[{"registryType":"npm","identifier":"@modelcontextprotocol/server-everything","version":"2026.8.31","transport":{"type":"stdio"},"packageArguments":[{"type":"positional","valueHint":"transport","description":"How to serve","isRequired":true,"default":"stdio","choices":["stdio","sse","streamableHttp"]}],"environmentVariables":[{"name":"EVERYTHING_TOKEN","description":"An API token the server reads","isRequired":true,"isSecret":true},{"name":"EVERYTHING_LABEL","description":"A label","default":"demo"}]}]}`,
	`{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json","name":"io.github.example/weather","title":"Weather \u001b[31mred\u001b[0m","description":"Forecasts from the national weather service","version":"1.2.0","packages":[{"registryType":"pypi","identifier":"mcp-weather","version":"1.2.0","transport":{"type":"stdio"},"environmentVariables":[{"name":"WEATHER_API_KEY","isRequired":false,"isSecret":true},{"name":"UNITS","default":"metric"}]}]}`,
}

// Handler serves GET /v0.1/servers (search, limit, cursor = index) and
// GET /v0.1/servers/{name}/versions/{version} (the version a document has,
// or "latest") for Servers followed by extra documents.
func Handler(extra ...string) http.Handler {
	all := append(append([]string(nil), Servers...), extra...)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v0.1/servers", func(w http.ResponseWriter, r *http.Request) {
		q := strings.ToLower(r.URL.Query().Get("search"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if limit <= 0 {
			limit = 30
		}
		start, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		type item struct {
			Server json.RawMessage `json:"server"`
		}
		var matched []item
		for _, s := range all {
			if q == "" || strings.Contains(strings.ToLower(s), q) {
				matched = append(matched, item{Server: json.RawMessage(s)})
			}
		}
		doc := map[string]any{"servers": []item{}, "metadata": map[string]any{"count": 0}}
		if start < len(matched) {
			end := min(len(matched), start+limit)
			meta := map[string]any{"count": end - start}
			if end < len(matched) {
				meta["nextCursor"] = strconv.Itoa(end)
			}
			doc = map[string]any{"servers": matched[start:end], "metadata": meta}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
	mux.HandleFunc("GET /v0.1/servers/{name}/versions/{version}", func(w http.ResponseWriter, r *http.Request) {
		name, _ := url.PathUnescape(r.PathValue("name"))
		version, _ := url.PathUnescape(r.PathValue("version"))
		for _, s := range all {
			var probe struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			}
			_ = json.Unmarshal([]byte(s), &probe)
			if probe.Name == name && (version == "latest" || version == probe.Version) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"server":` + s + `,"_meta":{}}`))
				return
			}
		}
		http.Error(w, `{"title":"Not Found","status":404}`, http.StatusNotFound)
	})
	return mux
}
