package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstBuildSaysWhatItDoes: on a cold module cache `make build` says
// what it is doing, step by step (downloading the modules, then
// compiling), not how long it will take: a promise of "a minute or two"
// took seven on a busy two-core machine. A stand-in go (GO=) answers as a
// cold cache does and records what it was asked.
func TestFirstBuildSaysWhatItDoes(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	fakeGo := filepath.Join(dir, "go")
	script := "#!/bin/sh\necho \"go $*\" >> " + filepath.Join(dir, "calls") + "\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "build", "GO="+fakeGo, "BIN="+filepath.Join(dir, "mcpdeck"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	said := string(out)
	for _, want := range []string{"step 1 of 2: downloading the Go modules", "step 2 of 2: compiling mcpdeck"} {
		if !strings.Contains(said, want) {
			t.Errorf("the first build does not say %q:\n%s", want, said)
		}
	}
	if strings.Contains(said, "minute") {
		t.Errorf("the first build promises a time:\n%s", said)
	}
	calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
	if i, j := strings.Index(string(calls), "go mod download"), strings.Index(string(calls), "go build"); i < 0 || j < i {
		t.Errorf("the modules are not downloaded before the compile:\n%s", calls)
	}
}
