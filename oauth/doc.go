// Package oauth authenticates mcpdeck to remote MCP servers: OAuth 2.1
// authorization code with PKCE (discovery, client registration, loopback
// callback, refresh, step-up, revocation), machine-to-machine grants, the
// token store (OS keychain with a 0600 file fallback), the needs-auth cache
// and the headersHelper runner.
//
// Manager is a thin front over parts that own their fields (manager.go
// lists them; parts_test.go holds them to it): what a part keeps, per
// server, only its own methods touch, through model/lock.
//
// Token values never leave this package except on the wire to the server
// and the authorization server: not in logs, errors or returned strings.
package oauth
