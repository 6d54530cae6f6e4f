package oauth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// keychainService is the service name of every mcpdeck keychain entry.
const keychainService = "mcpdeck"

// chunkSize keeps every keychain entry small: Windows limits a secret to
// 2.5 KB and some Secret Service backends choke on large values.
const chunkSize = 2000

// chunkMarker starts the head entry of a value split into numbered chunks.
const chunkMarker = "mcpdeck-chunks:"

// keychainStore is a Store over a Keyring with a timeout on every call and
// large values split into numbered chunks.
type keychainStore struct {
	kr      Keyring
	timeout time.Duration
}

type kcResult struct {
	v   string
	err error
}

// call runs f under the timeout. A hanging keychain (locked Secret Service
// waiting for a prompt nobody sees) then costs seconds, not forever; the
// goroutine is left to finish on its own when the keychain answers.
func (k *keychainStore) call(ctx context.Context, f func() (string, error)) (string, error) {
	ch := make(chan kcResult, 1)
	go func() {
		v, err := f()
		ch <- kcResult{v, err}
	}()
	t := time.NewTimer(k.timeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-t.C:
		return "", fmt.Errorf("%w (%s)", ErrKeychainTimeout, k.timeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (k *keychainStore) get(ctx context.Context, user string) (string, error) {
	return k.call(ctx, func() (string, error) { return k.kr.Get(keychainService, user) })
}

func (k *keychainStore) set(ctx context.Context, user, v string) error {
	_, err := k.call(ctx, func() (string, error) { return "", k.kr.Set(keychainService, user, v) })
	return err
}

func (k *keychainStore) del(ctx context.Context, user string) error {
	_, err := k.call(ctx, func() (string, error) { return "", k.kr.Delete(keychainService, user) })
	return err
}

func chunkUser(key string, i int) string { return key + "#" + strconv.Itoa(i) }

// Get reads key, joining chunks when the value was split.
func (k *keychainStore) Get(ctx context.Context, key string) (string, error) {
	head, err := k.get(ctx, key)
	if err != nil {
		return "", err
	}
	n, chunked := parseChunkHead(head)
	if !chunked {
		return head, nil
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		part, err := k.get(ctx, chunkUser(key, i))
		if err != nil {
			return "", fmt.Errorf("reading part %d of %d: %w", i, n, err)
		}
		b.WriteString(part)
	}
	return b.String(), nil
}

func parseChunkHead(head string) (int, bool) {
	rest, ok := strings.CutPrefix(head, chunkMarker)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > 1000 {
		return 0, false
	}
	return n, true
}

// Set writes key, splitting values over chunkSize into numbered entries.
func (k *keychainStore) Set(ctx context.Context, key, value string) error {
	old, _ := k.get(ctx, key)
	oldN, _ := parseChunkHead(old)
	if len(value) <= chunkSize && !strings.HasPrefix(value, chunkMarker) {
		if err := k.set(ctx, key, value); err != nil {
			return err
		}
		k.deleteChunks(ctx, key, 1, oldN)
		return nil
	}
	n := 0
	for off := 0; off < len(value); {
		end := min(off+chunkSize, len(value))
		// Never split a UTF-8 sequence: Secret Service strings must be valid UTF-8.
		for end < len(value) && end > off+1 && !utf8.RuneStart(value[end]) {
			end--
		}
		n++
		if err := k.set(ctx, chunkUser(key, n), value[off:end]); err != nil {
			return err
		}
		off = end
	}
	if err := k.set(ctx, key, chunkMarker+strconv.Itoa(n)); err != nil {
		return err
	}
	k.deleteChunks(ctx, key, n+1, oldN)
	return nil
}

func (k *keychainStore) deleteChunks(ctx context.Context, key string, from, to int) {
	for i := from; i <= to; i++ {
		_ = k.del(ctx, chunkUser(key, i))
	}
}

// Delete removes key and its chunks.
func (k *keychainStore) Delete(ctx context.Context, key string) error {
	head, err := k.get(ctx, key)
	if err != nil {
		return err
	}
	n, _ := parseChunkHead(head)
	if err := k.del(ctx, key); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	k.deleteChunks(ctx, key, 1, n)
	return nil
}
