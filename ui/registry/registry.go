// Package registry installs servers from the official MCP Registry API
// (v0.1): it searches the servers the registry lists and fetches one
// server.json (registry.go, reach.go), makes a plan of what installing it
// means and the fields it asks for (plan.go), builds the definition
// (build*.go) and installs it with its secrets (install.go); for an MCP
// bundle it downloads, checks and unpacks the archive (bundle*.go).
// Everything it returns comes from the network: answers are bounded in
// size and time, and callers print them through the sanitizer.
package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// DefaultURL is the official registry; MCPDECK_REGISTRY_URL replaces it.
const DefaultURL = "https://registry.modelcontextprotocol.io"

// maxAnswer bounds one answer; its time is bounded in reach.go.
const maxAnswer = 4 << 20

// ErrNotFound is a server (or version) the registry does not know.
var ErrNotFound = errors.New("not in the registry")

// Client talks to one registry.
type Client struct {
	Base string       // base URL, "" = DefaultURL
	HTTP *http.Client // nil = newHTTPClient on the network
}

// Entry is one listed server: its server.json, kept whole for show, and
// the fields a listing needs.
type Entry struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Version     string          `json:"version,omitempty"`
	Packages    []Package       `json:"packages,omitempty"`
	Remotes     []Remote        `json:"remotes,omitempty"`
	Raw         json.RawMessage `json:"-"`
}

// Kinds words how the server can be run: "npm", "oci", "remote"…
func (e Entry) Kinds() []string {
	var out []string
	for _, p := range e.Packages {
		out = append(out, p.RegistryType)
	}
	if len(e.Remotes) > 0 {
		out = append(out, "remote")
	}
	return out
}

// Page is one page of a search, with the cursor of the next ("" at the end).
type Page struct {
	Servers    []Entry
	NextCursor string
}

// URL is the registry's base URL: Base, or DefaultURL.
func (c Client) URL() string {
	if c.Base == "" {
		return DefaultURL
	}
	return strings.TrimRight(c.Base, "/")
}

func (c Client) client() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return newHTTPClient((&net.Dialer{}).DialContext)
}

// Search lists servers matching query, limit per page, from cursor.
func (c Client) Search(ctx context.Context, query string, limit int, cursor string) (Page, error) {
	q := url.Values{}
	if query != "" {
		q.Set("search", query)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var doc struct {
		Servers []struct {
			Server json.RawMessage `json:"server"`
		} `json:"servers"`
		Metadata struct {
			NextCursor string `json:"nextCursor"`
		} `json:"metadata"`
	}
	if err := c.get(ctx, "/v0.1/servers?"+q.Encode(), &doc); err != nil {
		return Page{}, err
	}
	p := Page{NextCursor: doc.Metadata.NextCursor}
	for i, s := range doc.Servers {
		e, err := decodeEntry(s.Server)
		if err != nil {
			return Page{}, fmt.Errorf("registry answer, server %d: %w", i+1, err)
		}
		p.Servers = append(p.Servers, e)
	}
	return p, nil
}

// Show fetches one server's server.json, at version ("" = the latest).
func (c Client) Show(ctx context.Context, name, version string) (Entry, error) {
	if version == "" {
		version = "latest"
	}
	var doc struct {
		Server json.RawMessage `json:"server"`
	}
	path := "/v0.1/servers/" + url.PathEscape(name) + "/versions/" + url.PathEscape(version)
	if err := c.get(ctx, path, &doc); errors.Is(err, ErrUnreachable) {
		return Entry{}, err // about the registry, not the server
	} else if err != nil {
		return Entry{}, fmt.Errorf("server %s: %w", name, err)
	}
	return decodeEntry(doc.Server)
}

func decodeEntry(raw json.RawMessage) (Entry, error) {
	var e Entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Entry{}, fmt.Errorf("not a server.json: %w", err)
	}
	if e.Name == "" {
		return Entry{}, errors.New(`not a server.json: no "name"`)
	}
	e.Raw = raw
	return e, nil
}

// get fetches path and decodes its JSON into v, within maxAnswer bytes.
func (c Client) get(ctx context.Context, path string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, reqTimeout)
	defer cancel()
	u := c.URL() + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client().Do(req)
	if err != nil {
		return c.failed(ctx, "did not answer", err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return c.failed(ctx, "broke off its answer", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("the registry at %s answered HTTP %d", c.URL(), resp.StatusCode)
	case len(body) > maxAnswer:
		return fmt.Errorf("the registry's answer is larger than %d MB", maxAnswer>>20)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the registry's answer is not the JSON expected: %w", err)
	}
	return nil
}

// failed words an exchange that broke: the registry could not be
// reached, or it did (what) for another reason, which the error keeps.
// The caller's own cancellation stays that.
func (c Client) failed(ctx context.Context, what string, err error) error {
	switch {
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		return ctx.Err()
	case unreachable(err):
		return &UnreachableError{URL: c.URL(), Err: err}
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err // not Go's `Get "URL": …`: the URL is said already
	}
	return fmt.Errorf("the MCP Registry at %s %s: %w", c.URL(), what, err)
}
