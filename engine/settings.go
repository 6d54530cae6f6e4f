package engine

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// settings are the environment-tunable connection limits, read once in New.
type settings struct {
	localBatch     int           // MCP_SERVER_CONNECTION_BATCH_SIZE; 0 (unset) = adaptive, see engine/localgate
	remoteBatch    int           // MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE, default 20
	connectTimeout time.Duration // MCP_TIMEOUT ms, default 30 000
	toolTimeout    time.Duration // MCP_TOOL_TIMEOUT ms, default 100 000 000
	// pingInterval is how often an open session is pinged (health.go):
	// MCPDECK_PING_INTERVAL ms, default 30 000, 0 = never.
	pingInterval time.Duration
}

// Limits that keep a hostile server from flooding the engine.
const (
	maxListItems      = 10000 // tools/resources/prompts per list
	maxTextLen        = 2048  // descriptions, instructions
	stderrTailLines   = 50
	maxURLElicitRetry = 3
	transientLimit    = 3 // transient errors in a row before reconnecting
	crashWindow       = 10 * time.Second
	crashLoopLimit    = 5
)

func readSettings(lookup func(string) (string, bool)) settings {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	num := func(key string, def int) int {
		v, ok := lookup(key)
		if !ok {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return def
		}
		return n
	}
	return settings{
		localBatch:     num("MCP_SERVER_CONNECTION_BATCH_SIZE", 0),
		remoteBatch:    num("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", 20),
		connectTimeout: time.Duration(num("MCP_TIMEOUT", 30000)) * time.Millisecond,
		toolTimeout:    time.Duration(num("MCP_TOOL_TIMEOUT", 100000000)) * time.Millisecond,
		pingInterval:   pingSetting(lookup),
	}
}

// pingSetting reads MCPDECK_PING_INTERVAL (ms): 0 turns the health check
// off; anything unreadable or negative keeps the default, 30 s.
func pingSetting(lookup func(string) (string, bool)) time.Duration {
	const def = 30 * time.Second
	v, ok := lookup("MCPDECK_PING_INTERVAL")
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return def
	}
	return time.Duration(n) * time.Millisecond
}

// Backoff is the reconnect policy (lifecycle.Backoff).
type Backoff = lifecycle.Backoff

// DefaultBackoff is the reconnect policy: 5 attempts, 1 s doubling, capped at 30 s.
func DefaultBackoff() Backoff { return lifecycle.DefaultBackoff() }

// defaultCacheDir is where an engine keeps its cache when Options.CacheDir
// is unset: platform.CacheDir, or, where the OS names no cache directory
// (no home), a new private directory under the temp dir for this engine
// alone. Never a fixed name there: another user of the machine could
// create it first, then read the engine's results and logs or plant links
// among them.
func defaultCacheDir() (string, error) {
	if dir, err := platform.CacheDir(); err == nil {
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "mcpdeck-cache-")
	if err != nil {
		return "", fmt.Errorf("engine: no cache directory (the OS names none, and the temp dir refused one): %w", err)
	}
	return dir, nil
}
