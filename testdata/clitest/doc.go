// Package clitest is what the tests of ui/cli and its sub-packages share:
// Main, which each package's TestMain calls to build the real mcpdeck
// binary once and check for leaked goroutines; Env, a private machine
// (HOME, XDG directories, managed directory, project) in which to run that
// binary; RegistryMachine, which runs the command line in process against
// a fake MCP Registry; and fixtures: the demo and fault servers, hostile
// text, bundles, symbolic links, a pseudo-terminal. Only tests import it;
// it lives under testdata so that `go build ./...` and deadcode leave it out.
package clitest
