package model

import (
	"slices"
	"testing"
)

func TestOwnSecretVar(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"MCPDECK_SERVE_TOKEN", "MCPDECK_CLIENT_SECRET", "MCPDECK_CLIENT_PRIVATE_KEY", "MCPDECK_IDP_ID_TOKEN",
		"MCPDECK_IDP_CLIENT_SECRET", "MCPDECK_IDP_ANYTHING", "MCPDECK_SECRET_VALUE", "mcpdeck_serve_token",
		"MCPDECK_FUTURE_API_KEY", "MCPDECK_PROXY_PASSWORD",
	} {
		if !OwnSecretVar(name) {
			t.Errorf("%s is not one of mcpdeck's credentials", name)
		}
	}
	for _, name := range []string{"MCPDECK_REGISTRY_URL", "MCPDECK_MANAGED_DIR", "MCPDECK_SERVER_URL", "GITHUB_TOKEN", "PATH", "MCPDECK"} {
		if OwnSecretVar(name) {
			t.Errorf("%s taken for one of mcpdeck's credentials", name)
		}
	}
	got := WithoutOwnSecrets([]string{"PATH=/bin", "MCPDECK_SERVE_TOKEN=t", "MCPDECK_IDP_ID_TOKEN=i", "X=MCPDECK_SERVE_TOKEN"})
	if !slices.Equal(got, []string{"PATH=/bin", "X=MCPDECK_SERVE_TOKEN"}) {
		t.Errorf("WithoutOwnSecrets = %v", got)
	}
}
