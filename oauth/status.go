package oauth

import (
	"context"

	"github.com/mcpdeck/mcpdeck/model"
)

// HasToken reports whether a token is stored for srv (it may have expired;
// a refresh token may still renew it). For listings such as mcp get.
func (m *Manager) HasToken(ctx context.Context, srv model.Server) (bool, error) {
	var rec tokenRecord
	return m.vault.loadJSON(ctx, storeKey(srv, kindToken), &rec)
}

// CheckStore touches the keychain once so that a missing or hanging one is
// noticed before the first token is needed, and returns Warnings (empty
// until a token was stored in the file). It can
// take up to KeyringTimeout: call it off the UI thread.
func (m *Manager) CheckStore(ctx context.Context) []string {
	_, _ = m.vault.store.Get(ctx, probeKey)
	return m.Warnings()
}
