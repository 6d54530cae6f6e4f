package model

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestCheckTransition(t *testing.T) {
	all := []State{StatePending, StateConnected, StateFailed, StateNeedsAuth, StateDisabled}
	allowed := map[[2]State]bool{}
	for from, tos := range allowedTransitions {
		for _, to := range tos {
			allowed[[2]State{from, to}] = true
		}
	}
	// Spot checks of the state machine (model/state.go) that must never regress.
	for _, must := range [][2]State{{StatePending, StateConnected}, {StateConnected, StatePending}, {StateDisabled, StatePending}, {StatePending, StatePending}} {
		if !allowed[must] {
			t.Errorf("%s → %s must be allowed", must[0], must[1])
		}
	}
	for _, never := range [][2]State{{StateDisabled, StateConnected}, {StateFailed, StateConnected}, {StateDisabled, StateFailed}} {
		if allowed[never] {
			t.Errorf("%s → %s must not be allowed", never[0], never[1])
		}
	}
	for _, from := range all {
		for _, to := range all {
			err := CheckTransition(from, to)
			if (err == nil) != allowed[[2]State{from, to}] {
				t.Errorf("CheckTransition(%s, %s) = %v", from, to, err)
			}
			if err != nil && !errors.Is(err, errBadTransition) {
				t.Errorf("error does not wrap ErrBadTransition: %v", err)
			}
		}
	}
}

func TestStateText(t *testing.T) {
	for _, s := range []State{StatePending, StateConnected, StateFailed, StateNeedsAuth, StateDisabled} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back State
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%s: round trip %s → %v %v", s, b, back, err)
		}
	}
	if State(42).String() != "State(42)" {
		t.Errorf("unknown state: %q", State(42).String())
	}
	var s State
	if err := s.UnmarshalText([]byte("bogus")); err == nil {
		t.Error("want an error for an unknown state name")
	}
}

func TestScopeNames(t *testing.T) {
	for s := ScopeConnector; s <= ScopeEnterprise; s++ {
		got, ok := ParseScope(s.String())
		if !ok || got != s {
			t.Errorf("ParseScope(%q) = %v %v", s.String(), got, ok)
		}
	}
	if _, ok := ParseScope("unknown"); ok {
		t.Error("ParseScope accepted unknown")
	}
	if Scope(0).String() != "unknown" || (ScopeEnterprise+1).String() != "unknown" {
		t.Errorf("scope table: %q %q", Scope(0).String(), (ScopeEnterprise + 1).String())
	}
	b, _ := json.Marshal(Server{Name: "x", Scope: ScopeProject, Approval: Approval{Status: ApprovalChanged}})
	want := `{"name":"x","scope":"project","source":"","hash":"","approval":{"status":"changed"},"policy":{"allowed":false},"enabled":false}`
	if string(b) != want {
		t.Errorf("Server JSON = %s\nwant %s", b, want)
	}
	if ApprovalStatus(9).String() != "unknown" {
		t.Error("unknown approval status")
	}
}

func TestOAuthConfigJSON(t *testing.T) {
	var o OAuthConfig
	if err := json.Unmarshal([]byte(`{"clientId":"c","grant":"client_credentials","x":1}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.ClientID != "c" || o.Grant != "client_credentials" || string(o.Extra["x"]) != "1" {
		t.Errorf("decoded %+v", o)
	}
	err := json.Unmarshal([]byte(`{"clientId":5}`), &o)
	if err == nil || err.Error() != "field clientId: must be a string, got number" {
		t.Errorf("error = %v", err)
	}
	if err := json.Unmarshal([]byte(`null`), &o); err != nil {
		t.Errorf("null: %v", err)
	}
}
