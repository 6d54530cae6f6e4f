package sandbox

import (
	"cmp"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// fakeFacts is a made-up machine: these paths exist (and the directories
// holding them), the files among them are files, and real maps the links
// to what they reach. The project is a repository.
func fakeFacts(paths map[string]bool, real map[string]string) Facts {
	paths["/home/u/proj/.git"] = false
	exists := func(p string) bool {
		if _, ok := paths[p]; ok {
			return true
		}
		for q := range paths {
			if within(q, p) {
				return true
			}
		}
		return false
	}
	return Facts{
		GOOS: "linux", Home: "/home/u", Project: "/home/u/proj", RunsIn: "/home/u/proj",
		TempDir: "/tmp/mcpdeck-sbx-1", RuntimeDir: "/run/user/1000",
		Own:    []string{"/home/u/.config/mcpdeck", "/home/u/.cache/mcpdeck"},
		Exists: exists,
		IsFile: func(p string) bool { return paths[p] },
		Real: func(p string) string {
			p = filepath.Clean(p)
			if r, ok := real[p]; ok {
				return r
			}
			if exists(p) {
				return p
			}
			return ""
		},
	}
}

// dropped reports whether p dropped path, and why.
func dropped(p Profile, path string) (string, bool) {
	for _, d := range p.Dropped {
		if d.Path == path {
			return d.Reason, true
		}
	}
	return "", false
}

func TestResolveDefaultProfile(t *testing.T) {
	paths := map[string]bool{
		"/usr": false, "/bin": false, "/lib": false, "/lib64": false, "/etc": false, "/opt": false,
		"/etc/shadow": true, "/etc/ssh": false,
		"/home/u/proj/node_modules/.bin/srv":          true,
		"/home/u/proj/node_modules/srv/dist/index.js": true,
		"/home/u/.nvm/versions/node/v22/bin/node":     true,
		"/home/u/.ssh": false, "/home/u/.config/mcpdeck": false,
	}
	f := fakeFacts(paths, nil)
	f.Program = model.Program{Command: "node", Path: "/home/u/.nvm/versions/node/v22/bin/node", Args: []string{"node_modules/srv/dist/index.js", "--port", "3"}}
	f.Runtimes = []string{"/home/u/.nvm/versions/node/v22/bin/node"}
	p := Resolve(model.DefaultSandbox(), f)
	wantRead := []string{"/bin", "/etc", "/home/u/.nvm/versions/node/v22", "/home/u/proj", "/lib", "/lib64", "/opt", "/usr"}
	if !slices.Equal(p.Read, wantRead) {
		t.Errorf("read = %v\nwant  %v", p.Read, wantRead)
	}
	if !slices.Equal(p.Write, []string{"/tmp/mcpdeck-sbx-1"}) {
		t.Errorf("write = %v", p.Write)
	}
	if !slices.Equal(p.Hide, []string{"/etc/ssh"}) || !slices.Equal(p.HideFiles, []string{"/etc/shadow"}) {
		t.Errorf("hide = %v, files %v (only closed paths that exist inside an open one)", p.Hide, p.HideFiles)
	}
	if !p.Network.None() {
		t.Errorf("network = %v", p.Network)
	}
}

// TestResolvePackageRoots: a program in node_modules opens the outermost
// node_modules (its dependencies live there), one in a virtual
// environment the environment; one directly in the home directory opens
// only itself, and nothing opens ~ or ~/.local whole.
func TestResolvePackageRoots(t *testing.T) {
	for _, tc := range []struct {
		prog, real string
		want       string
	}{
		{"/home/u/p/node_modules/.bin/x", "/home/u/p/node_modules/a/node_modules/x/cli.js", "/home/u/p/node_modules"},
		{"/srv/venv/bin/server", "", "/srv/venv"},
		{"/home/u/.local/bin/uvx", "", "/home/u/.local/bin"},
		{"/home/u/server.sh", "", "/home/u/server.sh"},
		{"/srv/tools/bin/x", "", "/srv/tools/bin"},
	} {
		paths := map[string]bool{"/srv/venv/pyvenv.cfg": true, tc.prog: true}
		if tc.real != "" {
			paths[tc.real] = true
		}
		f := fakeFacts(paths, map[string]string{tc.prog: cmp.Or(tc.real, tc.prog)})
		f.Project = ""
		f.Program = model.Program{Path: tc.prog, Real: tc.real}
		f.Runtimes = []string{tc.prog}
		p := Resolve(model.DefaultSandbox(), f)
		if !under(tc.want, p.Read) {
			t.Errorf("%s: read %v lacks %s", tc.prog, p.Read, tc.want)
		}
		for _, r := range p.Read {
			if r == "/home/u" || r == "/home/u/.local" || r == "/" {
				t.Errorf("%s: opened %s whole", tc.prog, r)
			}
		}
	}
}

// TestResolveNeverWinsOverTheDefinition: listing ~/.ssh (or something in
// it) opens nothing there; listing ~ opens the home with the closed paths
// masked; mcpdeck's own directories are closed like keys.
func TestResolveNeverWinsOverTheDefinition(t *testing.T) {
	paths := map[string]bool{"/home/u/.ssh": false, "/home/u/.aws": false, "/home/u/.config/mcpdeck": false, "/home/u/.local/share/keyrings": false, "/run/user/1000/bus": true}
	f := fakeFacts(paths, nil)
	box := &model.Sandbox{
		Profile: model.SandboxProfileDefault,
		Read:    []string{"/home/u/.ssh/id_rsa", "/home/u", "/run/user/1000"},
		Write:   []string{"/home/u/.aws", "/home/u/.config/mcpdeck/credentials.json"},
	}
	p := Resolve(box, f)
	for _, d := range []string{"/home/u/.ssh/id_rsa", "/home/u/.aws", "/home/u/.config/mcpdeck/credentials.json", "/run/user/1000"} {
		if why, ok := dropped(p, d); !ok || why != ReasonNever || slices.Contains(p.Read, d) || slices.Contains(p.Write, d) {
			t.Errorf("%s: dropped %v, read %v, write %v", d, p.Dropped, p.Read, p.Write)
		}
	}
	for _, h := range []string{"/home/u/.ssh", "/home/u/.aws", "/home/u/.config/mcpdeck", "/home/u/.local/share/keyrings"} {
		if !slices.Contains(p.Hide, h) && !slices.Contains(p.HideFiles, h) {
			t.Errorf("hide %v lacks %s", p.Hide, h)
		}
	}
}

func TestResolveWriteProjectAndAdditions(t *testing.T) {
	f := fakeFacts(map[string]bool{"/data": false, "/out": false, "/home/u/proj/sub": false}, nil)
	box := &model.Sandbox{
		Profile: model.SandboxProfileWriteProject, Read: []string{"/data", "/home/u/proj/sub"}, Write: []string{"/out"},
		Network: model.SandboxNetwork{Hosts: []string{"api.github.com"}},
	}
	p := Resolve(box, f)
	if !slices.Equal(p.Write, []string{"/home/u/proj", "/out", "/tmp/mcpdeck-sbx-1"}) {
		t.Errorf("write = %v", p.Write)
	}
	if slices.Contains(p.Read, "/home/u/proj/sub") || !slices.Contains(p.Read, "/data") {
		t.Errorf("read = %v (a path a write path covers is not read again)", p.Read)
	}
	if p.Network.String() != "api.github.com" {
		t.Errorf("network = %v", p.Network)
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/a/../b", "/a", false}, {"/", "/a", false}, {"/a/..b", "/a", true}} {
		if got := within(tc.path, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v", tc.path, tc.dir, got)
		}
	}
}

func TestWithinRelativeAndRoot(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{{"a/b", ".", true}, {"../a", ".", false}, {"/a", "/", true}, {"/", "/", true}, {"a", "/", false}, {"/a/b/", "/a/b", true}, {"/ab/c", "/a", false}} {
		if got := within(tc.path, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v", tc.path, tc.dir, got)
		}
	}
}
