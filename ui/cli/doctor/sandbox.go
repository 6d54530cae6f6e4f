package doctor

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// sandboxCheck says which sandbox mechanism this system has, its version,
// and whether it can make a sandbox here; missing or broken, it is a ✗
// when a server asks for a sandbox (that server will not run), else
// worth knowing.
func sandboxCheck(ctx context.Context, res *config.Resolved) docLine {
	return sandboxCheckWith(ctx, res, func() (sandbox.Mechanism, error) {
		return sandbox.FindMechanism(func(p string) bool { _, err := os.Stat(p); return err == nil })
	})
}

// sandboxCheckWith is sandboxCheck with the mechanism found by find.
func sandboxCheckWith(ctx context.Context, res *config.Resolved, find func() (sandbox.Mechanism, error)) docLine {
	var users []string
	for _, s := range res.Servers {
		if s.Config.Sandbox != nil {
			users = append(users, s.Name)
		}
	}
	fail := func(text, fix string) docLine {
		if len(users) == 0 {
			return docLine{mark: docInfo, text: text + " (no server asks for one)"}
		}
		return docLine{mark: docBad, text: text + ", and " + strings.Join(users, ", ") + " cannot run without it", fix: fix}
	}
	m, err := find()
	if err != nil {
		return fail("sandbox: none available", err.Error())
	}
	l := launch.Own(res.ManagedPolicy)
	lim := platform.Limits{Timeout: 3 * time.Second, MaxOutput: 4 << 10}
	version := m.Name
	if m.VersionArgs != nil {
		if b, err := l.Run(ctx, launch.Spec{Command: m.Path, Args: m.VersionArgs}, nil, lim); err == nil {
			version = strings.TrimSpace(string(b))
		}
	}
	if _, err := l.Run(ctx, launch.Spec{Command: m.Path, Args: m.ProbeArgs}, nil, lim); err != nil {
		return fail("sandbox: "+version+" ("+m.Path+") cannot make a sandbox here: "+err.Error(),
			"allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0)")
	}
	return docLine{mark: docOK, text: "sandbox: " + version + " (" + m.Path + ")" + usersNote(users)}
}

// usersNote names the servers that run sandboxed.
func usersNote(users []string) string {
	if len(users) == 0 {
		return ""
	}
	return "; sandboxed: " + strings.Join(users, ", ")
}
