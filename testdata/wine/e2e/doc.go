// Package e2e runs mcpdeck.exe under Wine as a person on Windows would:
// its tests are a Windows test binary that testdata/wine/run.sh builds and
// runs in the Wine prefix, so every program here is a Windows process
// started by CreateProcess, with a Windows environment and Windows paths.
// MCPDECK_EXE names the mcpdeck.exe under test.
package e2e
