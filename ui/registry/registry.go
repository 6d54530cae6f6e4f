// Package registry reads the official MCP Registry API (v0.1): search the
// servers it lists and fetch one server.json. Everything it returns comes
// from the network: answers are bounded in size and time, and callers print
// them through the sanitizer.
package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultURL is the official registry; MCPDECK_REGISTRY_URL replaces it.
const DefaultURL = "https://registry.modelcontextprotocol.io"

// Bounds on one answer.
const (
	maxAnswer  = 4 << 20
	reqTimeout = 15 * time.Second
)

// ErrNotFound is a server (or version) the registry does not know.
var ErrNotFound = errors.New("not in the registry")

// Client talks to one registry.
type Client struct {
	Base string       // base URL, "" = DefaultURL
	HTTP *http.Client // nil = a default client
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

func (c Client) base() string {
	if c.Base == "" {
		return DefaultURL
	}
	return strings.TrimRight(c.Base, "/")
}

func (c Client) client() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: reqTimeout}
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
	if err := c.get(ctx, path, &doc); err != nil {
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
	u := c.base() + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client().Do(req)
	if err != nil {
		return fmt.Errorf("the registry at %s did not answer: %w", c.base(), err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("reading the registry's answer: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("the registry at %s answered HTTP %d", c.base(), resp.StatusCode)
	case len(body) > maxAnswer:
		return fmt.Errorf("the registry's answer is larger than %d MB", maxAnswer>>20)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the registry's answer is not the JSON expected: %w", err)
	}
	return nil
}
