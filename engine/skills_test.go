package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/skilltest"
)

// skillsEngine connects an engine to a fresh skills server as "sk".
func skillsEngine(t *testing.T) (*Engine, *skilltest.Server) {
	t.Helper()
	srv := skilltest.New()
	t.Cleanup(srv.Close)
	e := realEngine(t, map[string]any{"sk": map[string]any{"type": "http", "url": srv.HTTP.URL, "protocolVersion": "2025-11-25"}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "sk", "connected", inState(model.StateConnected))
	return e, srv
}

// TestSkillsListedWithoutReadingFiles: the skills are listed with names,
// descriptions, files and sizes on connect, and no file is read.
func TestSkillsListedWithoutReadingFiles(t *testing.T) {
	e, srv := skillsEngine(t)
	s, _ := serverSnap(e.Snapshot(), "sk")
	if len(s.Skills) != 2 {
		t.Fatalf("want 2 skills, got %+v", s.Skills)
	}
	a, b := s.Skills[0], s.Skills[1]
	if a.Name != "alpha" || a.Description != "Fill in forms" || len(a.Files) != 2 || a.Problem != "" {
		t.Errorf("alpha listed as %+v", a)
	}
	if a.Files[0].URI != skilltest.AlphaURI || a.Files[0].Size != int64(len(skilltest.AlphaBody)) || a.Files[1].Size != int64(len(skilltest.FormsBody)) {
		t.Errorf("alpha files %+v", a.Files)
	}
	if b.Name != "beta" || len(b.Files) != 1 || b.Problem != "" {
		t.Errorf("beta listed as %+v", b)
	}
	if r := srv.Reads(); len(r) != 0 {
		t.Fatalf("files read before any skill was loaded: %v", r)
	}
}

// TestLoadSkillReadsOnlyItsFiles: loading alpha returns its SKILL.md after
// reading its two files once each, and nothing of beta.
func TestLoadSkillReadsOnlyItsFiles(t *testing.T) {
	e, srv := skillsEngine(t)
	sk, err := e.LoadSkill(context.Background(), "sk", "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if sk.Manifest != skilltest.AlphaBody || string(sk.Contents[skilltest.AlphaForms]) != skilltest.FormsBody {
		t.Fatalf("loaded %q, contents %v", sk.Manifest, sk.Contents)
	}
	r := srv.Reads()
	if r[skilltest.AlphaURI] != 1 || r[skilltest.AlphaForms] != 1 || r[skilltest.BetaURI] != 0 {
		t.Fatalf("reads %v", r)
	}
	// a folded description in the file equals the list's string
	if _, err := e.LoadSkill(context.Background(), "sk", "beta"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.LoadSkill(context.Background(), "sk", "gamma"); !errors.Is(err, ErrUnknownSkill) {
		t.Fatalf("unknown skill: %v", err)
	}
}

// TestLoadSkillRefusesMismatch: a SKILL.md whose digest, size or
// frontmatter differs from the list is refused with an error naming the
// server, skill and file; nothing is returned and no further file is read.
func TestLoadSkillRefusesMismatch(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(*skilltest.Server)
		why    string
	}{
		{"digest", func(s *skilltest.Server) {
			s.Serve(skilltest.AlphaURI, strings.Replace(skilltest.AlphaBody, "Alpha body.", "Evil body!!", 1))
		}, "digest"},
		{"size", func(s *skilltest.Server) { s.Serve(skilltest.AlphaURI, skilltest.AlphaBody+"more") }, "bytes"},
		{"frontmatter", func(s *skilltest.Server) { s.ListAlphaDescription("Exfiltrate credentials") }, "frontmatter differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := skilltest.New()
			defer srv.Close()
			c.tamper(srv)
			e := realEngine(t, map[string]any{"sk": map[string]any{"type": "http", "url": srv.HTTP.URL, "protocolVersion": "2025-11-25"}}, nil, nil)
			if err := e.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			await(t, e, "sk", "connected", inState(model.StateConnected))
			sk, err := e.LoadSkill(context.Background(), "sk", "alpha")
			if !errors.Is(err, ErrSkillRefused) {
				t.Fatalf("want a refusal, got %v", err)
			}
			for _, want := range []string{"sk", "alpha", skilltest.AlphaURI, c.why} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if sk.Manifest != "" || sk.Contents != nil {
				t.Errorf("refused skill returned content: %+v", sk)
			}
			if r := srv.Reads(); r[skilltest.AlphaForms] != 0 {
				t.Errorf("read on after the SKILL.md failed: %v", r)
			}
		})
	}
}
