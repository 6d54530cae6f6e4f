//go:build !unix

package oauth

// lockFile is a no-op where flock is not available; the atomic rename still
// keeps the file whole.
func lockFile(string) (func(), error) { return func() {}, nil }
