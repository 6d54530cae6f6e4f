package launch

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestShimOf: the shims of pyenv (and rbenv, nodenv...), asdf, mise and
// volta are recognised, with the manager's which command to ask; an
// ordinary script or binary is no shim.
func TestShimOf(t *testing.T) {
	look := func(name string) string {
		if name == "asdf" {
			return "/usr/local/bin/asdf"
		}
		return ""
	}
	pyenv := "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\nexport PYENV_ROOT=\"/h/.pyenv\"\nexec \"/h/.pyenv/libexec/pyenv\" exec \"$program\" \"$@\"\n"
	rbenv := "#!/usr/bin/env bash\nexec \"/h/.rbenv/libexec/rbenv\" exec \"$program\" \"$@\"\n"
	asdf := "#!/usr/bin/env bash\n# asdf-plugin: nodejs 22.1.0\nexec asdf exec \"node\" \"$@\" # asdf_allow: ' asdf '\n"
	asdfAbs := "#!/usr/bin/env bash\nexec /h/.asdf/bin/asdf exec \"python3\" \"$@\"\n"
	for _, tc := range []struct {
		name       string
		prog       model.Program
		head       string
		manager    string
		command    string
		args, root string
		env        map[string]string
	}{
		{"pyenv", model.Program{Path: "/h/.pyenv/shims/python3"}, pyenv, "pyenv", "/h/.pyenv/libexec/pyenv", "which python3", "/h/.pyenv", map[string]string{"PYENV_ROOT": "/h/.pyenv"}},
		{"rbenv", model.Program{Path: "/h/.rbenv/shims/ruby"}, rbenv, "rbenv", "/h/.rbenv/libexec/rbenv", "which ruby", "/h/.rbenv", map[string]string{"RBENV_ROOT": "/h/.rbenv"}},
		{"asdf", model.Program{Path: "/h/.asdf/shims/node"}, asdf, "asdf", "/usr/local/bin/asdf", "which node", "/h/.asdf", nil},
		{"asdf path", model.Program{Path: "/h/.asdf/shims/python3"}, asdfAbs, "asdf", "/h/.asdf/bin/asdf", "which python3", "/h/.asdf", nil},
		{"mise", model.Program{Path: "/h/.local/share/mise/shims/node", Real: "/usr/bin/mise"}, "\x7fELF", "mise", "/usr/bin/mise", "which node", "/h/.local/share/mise", nil},
		{"volta", model.Program{Path: "/h/.volta/bin/node", Real: "/h/.volta/bin/volta-shim"}, "\x7fELF", "volta", "/h/.volta/bin/volta", "which node", "/h/.volta", map[string]string{"VOLTA_HOME": "/h/.volta"}},
	} {
		q, ok := shimOf(tc.prog, []byte(tc.head), "/h", look)
		if !ok || q.manager != tc.manager || q.command != tc.command || !slices.Equal(q.args, strings.Fields(tc.args)) || q.root != tc.root || len(q.env) != len(tc.env) {
			t.Errorf("%s: %+v %v", tc.name, q, ok)
		}
		for k, v := range tc.env {
			if q.env[k] != v {
				t.Errorf("%s: env %v", tc.name, q.env)
			}
		}
	}
	for _, no := range []struct {
		prog model.Program
		head string
	}{
		{model.Program{Path: "/usr/bin/python3", Real: "/usr/bin/python3.12"}, "\x7fELF"},
		{model.Program{Path: "/srv/run.sh"}, "#!/bin/sh\nexec node server.js\n"},
		{model.Program{Path: "/usr/bin/mise", Real: "/usr/bin/mise"}, "\x7fELF"},
		{model.Program{Path: "/x/shims/node"}, "#!/bin/sh\nexec asdf exec \"node\" \"$@\"\n"}, // asdf not on PATH
	} {
		if q, ok := shimOf(no.prog, []byte(no.head), "/h", func(string) string { return "" }); ok {
			t.Errorf("%s: taken for a shim: %+v", no.prog.Path, q)
		}
	}
}
