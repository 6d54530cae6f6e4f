package clicore

import (
	"fmt"
	"runtime/debug"
)

// versionText is what `mcpdeck --version` prints: the module version Go
// recorded at build time ("(devel)" for a plain `go build` in a checkout,
// a tag such as v0.3.0 for `go install …@v0.3.0`), then the commit and its
// date and whether the tree had uncommitted changes, when the binary was
// built from a git checkout. Nothing is looked up at run time.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "unknown (built without module information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", with uncommitted changes"
			}
		}
	}
	if rev == "" {
		return v + " " + info.GoVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return fmt.Sprintf("%s (commit %s, %s%s) %s", v, rev, at, dirty, info.GoVersion)
}

// BuildVersion is versionText for the running binary.
func BuildVersion() string { return versionText(debug.ReadBuildInfo()) }

// ModuleVersion is mcpdeck's version alone, the first word of BuildVersion
// ("(devel)" in a checkout built without VCS stamping): the one version
// --version prints, `mcpdeck version` prints, servers are told (the
// engine's clientInfo) and serve's agents see (serverInfo).
func ModuleVersion() string { return moduleVersion(debug.ReadBuildInfo()) }

func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if ok && info != nil && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
