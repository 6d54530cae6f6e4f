package cli

import (
	"context"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// storeChecker is an Authenticator that records CheckStore calls.
type storeChecker struct {
	engine.Authenticator
	checked chan struct{}
}

func (s storeChecker) CheckStore(context.Context) []string {
	close(s.checked)
	return nil
}

func TestKeychainCheckedEarlyOnlyForOAuthServers(t *testing.T) {
	snap := func(ts ...model.Transport) engine.Snapshot {
		var s engine.Snapshot
		for _, tr := range ts {
			s.Servers = append(s.Servers, engine.ServerSnapshot{Transport: tr})
		}
		return s
	}
	a := storeChecker{checked: make(chan struct{})}
	checkKeychainEarly(context.Background(), a, snap(model.TransportStdio, model.TransportSDK, model.TransportWS))
	select {
	case <-a.checked:
		t.Fatal("the keychain was touched with no sse/http server configured")
	default:
	}
	checkKeychainEarly(context.Background(), a, snap(model.TransportStdio, model.TransportHTTP))
	<-a.checked // blocks (and the test times out) if the check never runs
	checkKeychainEarly(context.Background(), nil, snap(model.TransportHTTP))
}
