// Package e2e holds the engine's end-to-end tests against real MCP servers:
// @modelcontextprotocol/server-everything over stdio, SSE, streamable HTTP
// and (through supergateway) WebSocket, installed by `make npm-deps` into
// testdata/npm/node_modules. It has no non-test code beyond this comment.
//
// The tests find the Node tools through MCPDECK_NPM_DIR (set by the
// Makefile) or by walking up to testdata/npm/node_modules. Without them they
// skip with a message, except when CI=true, where they fail.
package e2e
