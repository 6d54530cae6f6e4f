package transports

import (
	"errors"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestFactoryOpensEveryTransport: every row of the transport table opens
// some way. A row whose Opens the factory does not handle fails as
// unsupported; here each open fails for its own reason instead (nothing
// listens, no such program or built-in server), and only an unknown type
// is unsupported.
func TestFactoryOpensEveryTransport(t *testing.T) {
	for _, ti := range model.Transports() {
		cfg := model.ServerConfig{Type: ti.Name, Command: "mcpdeck-no-such-program", Name: "nope"}
		if ti.Remote {
			cfg.URL = ti.Schemes[0] + "://127.0.0.1:9/mcp"
		}
		_, err := NewFactory().Open(t.Context(), "x", cfg, Options{})
		if err == nil || errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s: Open = %v, want its own failure", ti.Name, err)
		}
	}
	if _, err := NewFactory().Open(t.Context(), "x", model.ServerConfig{Type: "carrier-pigeon"}, Options{}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("an unknown transport: %v, want ErrUnsupported", err)
	}
}
