package addserver

import (
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// TestInstallSchemaKeepsThePlansOrder: the form asks for a registry
// server's fields in the plan's order, one form field per label (where the
// first of them was, as the last says), required as the plan says, and
// hands the values back by field ID.
func TestInstallSchemaKeepsThePlansOrder(t *testing.T) {
	fields := []registry.Field{
		{ID: "z", Kind: registry.FieldEnv, Key: "ZONE", Input: registry.Input{IsRequired: true, Default: "eu"}},
		{ID: "tok", Kind: registry.FieldHeader, Key: "Authorization", Input: registry.Input{IsSecret: true}},
		{ID: "mode", Kind: registry.FieldEnv, Key: "MODE", Input: registry.Input{Choices: []string{"fast", "safe"}, Default: "safe"}},
		{ID: "z2", Kind: registry.FieldEnv, Key: "ZONE", Input: registry.Input{Default: "us"}},
	}
	sf, err := form.Parse(installSchema(fields))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, f := range sf.Fields() {
		labels = append(labels, f.GetKey())
	}
	if want := []string{"env ZONE", "header Authorization", "env MODE"}; !slices.Equal(labels, want) {
		t.Fatalf("fields %v, want %v", labels, want)
	}
	byLabel, err := sf.StringValues()
	if err != nil {
		t.Fatal(err)
	}
	got := installValues(fields, byLabel)
	if got["z"] != "us" || got["z2"] != "us" || got["mode"] != "safe" || len(got) != 3 {
		t.Fatalf("values by ID: %v", got)
	}
	if err := sf.Validate(map[string]any{}); err == nil {
		t.Error("the form took no value for a required field")
	}
}
