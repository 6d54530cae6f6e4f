// Package clierr holds how a command fails: usage errors, the silent
// failure whose words were already printed, an error as one sentence, the
// SIGTERM stop, and the exit codes each maps to.
package clierr
