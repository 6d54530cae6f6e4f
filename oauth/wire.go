package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// wire is how mcpdeck talks to authorization servers: metadata reads and
// the form posts of the token and revocation endpoints, over one client
// whose redirects checkRedirect judges, with DPoP proofs and the nonces
// each origin hands out (also those of resource servers). Its fields are
// set once; nonces guards its own.
type wire struct {
	http   *http.Client
	nonces dpopNonces
	now    func() time.Time
}

// getJSON fetches url into v; it returns the status and decodes only 200s.
func (w *wire) getJSON(ctx context.Context, u string, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	resp, err := w.http.Do(req)
	if err != nil {
		return 0, humanNetErr(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return resp.StatusCode, fmt.Errorf("%s is not valid JSON metadata", shownURL(u))
	}
	return resp.StatusCode, nil
}

// humanNetErr keeps the URL and cause of a transport error readable, and
// clean: the URL may come from an authorization server.
func humanNetErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return &cleanError{
			msg: "cannot reach " + shownURL(ue.URL) + ": " + textsafe.SanitizeLine(ue.Err.Error()),
			err: ue.Err,
		}
	}
	return err
}

// postForm sends an authenticated form to an authorization-server endpoint;
// role names the endpoint in the refusal of a plain-http one. Discovery
// refuses such metadata already; this covers endpoints remembered in
// token records and configured ones (oauth.idpTokenEndpoint).
func (w *wire) postForm(ctx context.Context, role, endpoint string, form url.Values, ca clientAuth) (*http.Response, error) {
	if err := secureEndpoint(role, endpoint); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("bad endpoint %q: %w", endpoint, err)
	}
	if err := applyClientAuth(req, form, ca); err != nil {
		return nil, err
	}
	body := form.Encode()
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if ca.DPoP != nil {
		proof, err := dpopProof(ca.DPoP, http.MethodPost, req.URL, "", w.nonces.get(req.URL), w.now())
		if err != nil {
			return nil, err
		}
		req.Header.Set("DPoP", proof)
	}
	resp, err := w.http.Do(req)
	if err != nil {
		return nil, humanNetErr(err)
	}
	return resp, nil
}
