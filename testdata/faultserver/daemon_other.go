//go:build !unix

package main

import "errors"

// spawnDaemon is unix only: a session of its own is a unix notion.
func spawnDaemon() error { return errors.New("-spawn-daemon is unix only") }
