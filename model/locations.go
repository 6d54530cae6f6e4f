package model

// ProjectsDir (in the config dir) holds the person's private state of
// each project: see StatePath.
const ProjectsDir = "projects"

// UntrustedLocalDir and UntrustedLocalFile name the file inside a project
// where older mcpdeck versions kept local settings. A repository can ship
// it, so it is never trusted: see untrusted.go.
const (
	UntrustedLocalDir  = ".mcpdeck"
	UntrustedLocalFile = "settings.local.json"
)
