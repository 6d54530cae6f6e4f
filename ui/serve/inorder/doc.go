// Package inorder puts the notifications a request's handler sends about
// that request (its progress, its log messages) on the request's own
// stream, ahead of the request's result.
//
// mcp-go's servers queue a notification apart from the result. Over
// streamable HTTP every notification of a session goes to whichever of the
// session's open streams reads it first, often the standalone GET stream
// rather than the POST that asked; over stdio a goroutine of its own
// writes it. Either way the result can overtake the last notification, and
// a client that already has its result drops progress for a request it no
// longer knows (the TypeScript SDK does: the conformance suite's
// tools-call-with-progress then sees 2 of 3). A Stream here keeps the
// handler's notifications in a queue of its own, written out as they come
// and always before anything else the server writes on the same stream.
package inorder
