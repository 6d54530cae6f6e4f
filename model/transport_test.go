package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTransportTableComplete: every Transport constant has a row, and every
// row is whole: a name, a way to open, exactly one of program, built-in and
// remote, schemes exactly when remote, and sign-in only over HTTP headers.
func TestTransportTableComplete(t *testing.T) {
	consts, openings := transportConsts(t)
	if len(consts) == 0 || openings < 2 {
		t.Fatal("no Transport or Opening constants found in transport.go")
	}
	for _, name := range consts {
		if Transport(name).Info().Opens == OpenNone {
			t.Errorf("transport %q has no row in transportTable", name)
		}
	}
	seen := map[string]bool{}
	for _, ti := range Transports() {
		for _, n := range append([]string{string(ti.Name)}, ti.Aliases...) {
			if k := strings.ToLower(n); n == "" || seen[k] {
				t.Errorf("%s: name or alias %q is empty or used twice", ti.Name, n)
			} else {
				seen[k] = true
			}
			if got, ok := LookupTransport(strings.ToUpper(n)); !ok || got.Name != ti.Name {
				t.Errorf("LookupTransport(%q) = %q, %v; want %q", n, got.Name, ok, ti.Name)
			}
		}
		if !slices.Contains(consts, string(ti.Name)) {
			t.Errorf("row %q has no Transport constant", ti.Name)
		}
		kinds := 0
		for _, b := range []bool{ti.Program, ti.Builtin, ti.Remote} {
			if b {
				kinds++
			}
		}
		switch {
		case ti.Opens <= OpenNone || int(ti.Opens) >= openings:
			t.Errorf("%s: Opens is %d, not a way to open", ti.Name, ti.Opens)
		case kinds != 1:
			t.Errorf("%s: want exactly one of Program, Builtin and Remote", ti.Name)
		case ti.Remote != (len(ti.Schemes) > 0):
			t.Errorf("%s: a remote transport has URL schemes, and only it", ti.Name)
		case ti.PathHint != "" && !ti.Remote, ti.Headers && !ti.Remote, ti.OAuth && !ti.Headers:
			t.Errorf("%s: a path hint and headers need a URL, sign-in needs headers", ti.Name)
		}
	}
	if got := TransportNames(func(ti TransportInfo) bool { return ti.OAuth }, "and"); got != "sse and http" {
		t.Errorf("the transports one signs in to: %q", got)
	}
}

// transportConsts reads transport.go: the names of the Transport
// constants, so that a constant added without a row fails the test, and
// how many Opening constants there are (a new way to open is one more
// constant, and this test needs no change for it).
func transportConsts(t *testing.T) (names []string, openings int) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "transport.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return true
		}
		for i, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			id, _ := vs.Type.(*ast.Ident)
			switch {
			case i == 0 && id != nil && id.Name == "Opening":
				openings = len(gd.Specs)
			case id != nil && id.Name == "Transport" && len(vs.Values) == 1:
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
					v, _ := strconv.Unquote(lit.Value)
					names = append(names, v)
				}
			}
		}
		return false
	})
	return names, openings
}

// TestTransportRulesHaveOneHome fails when production code outside the
// transport table decides by a transport's name again: a comparison or a
// case with a Transport constant, the retired IsRemote, or a transport's
// name or alias as a string literal ("http" and "ws" count only where they
// are compared with something that is not a URL scheme). What depends on
// the transport reads a column of its row (Transport.Info).
func TestTransportRulesHaveOneHome(t *testing.T) {
	names, schemes := transportWords()
	// The words of other formats that happen to be transport names.
	allowed := map[string]bool{
		"model/transport.go":  true, // the table
		"ui/registry/plan.go": true, // server.json's own transport words, mapped to ours
	}
	root := filepath.Join("..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, v := range transportCopies(f, names, schemes) {
			t.Errorf("%s: %s; read the transport's row instead (model.Transport.Info, model/transport.go)", fset.Position(v.Pos()), describe(v))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// transportWords are the transports' names and aliases, and the URL
// schemes some of them share.
func transportWords() (names, schemes map[string]bool) {
	names, schemes = map[string]bool{}, map[string]bool{}
	for _, ti := range Transports() {
		names[string(ti.Name)] = true
		for _, a := range ti.Aliases {
			names[strings.ToLower(a)] = true
		}
		for _, s := range ti.Schemes {
			schemes[s] = true
		}
	}
	return names, schemes
}

// TestOneHomeCheckFindsCopies plants, in a Windows-only file, each way of
// deciding by a transport's name (a constant compared, a case, a name as a
// string, IsRemote) beside a URL scheme compared with a scheme, and makes
// sure the check above finds the four copies and passes the scheme.
func TestOneHomeCheckFindsCopies(t *testing.T) {
	const src = `//go:build windows

package transports

func pick(cfg model.ServerConfig, u *url.URL) {
	if cfg.Type == model.TransportStdio {
		return
	}
	switch cfg.Type {
	case model.TransportSSE:
	}
	kind := "streamable-http"
	_ = cfg.IsRemote()
	if u.Scheme == "http" {
		return
	}
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "pick_windows.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names, schemes := transportWords()
	if got := transportCopies(f, names, schemes); len(got) != 4 {
		var what []string
		for _, n := range got {
			what = append(what, describe(n))
		}
		t.Errorf("found %d copies %v, want 4", len(got), what)
	}
}

// transportCopies lists the nodes of f that decide by a transport's name.
func transportCopies(f *ast.File, names, schemes map[string]bool) []ast.Node {
	var out []ast.Node
	isConst := func(x ast.Expr) bool {
		var id *ast.Ident
		switch x := ast.Unparen(x).(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		return id != nil && strings.HasPrefix(id.Name, "Transport") && names[strings.ToLower(strings.TrimPrefix(id.Name, "Transport"))]
	}
	// schemeName reports a transport name that is a URL scheme too ("http",
	// "ws") compared with against, which does not hold a URL scheme.
	// Every other name is a copy wherever it is written (the *ast.BasicLit
	// case below).
	schemeName := func(x ast.Expr, against ast.Expr) bool {
		lit, ok := ast.Unparen(x).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || against == nil {
			return false
		}
		v, err := strconv.Unquote(lit.Value)
		return err == nil && names[v] && schemes[v] && !strings.Contains(strings.ToLower(exprText(against)), "scheme")
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if n.Name == "IsRemote" {
				out = append(out, n)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if isConst(n.X) || isConst(n.Y) || schemeName(n.X, n.Y) || schemeName(n.Y, n.X) {
					out = append(out, n)
				}
			}
		case *ast.SwitchStmt:
			for _, s := range n.Body.List {
				for _, x := range s.(*ast.CaseClause).List {
					if isConst(x) || schemeName(x, n.Tag) {
						out = append(out, x)
					}
				}
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && names[v] && !schemes[v] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// exprText lists the identifiers of x, for the "is it a URL scheme" test.
func exprText(x ast.Expr) string {
	var b strings.Builder
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			b.WriteString(id.Name + ".")
		}
		return true
	})
	return b.String()
}

// describe names a copy found by transportCopies.
func describe(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Ident:
		return "IsRemote is retired"
	case *ast.BasicLit:
		return "transport name " + n.Value + " written as a string"
	}
	return "decides by a transport's name"
}

// TestEditorTransports: the editor transports are remote, reached only on
// loopback, never added by a person, and found by their lock-file word;
// only ws-ide carries the token.
func TestEditorTransports(t *testing.T) {
	for _, ti := range Transports() {
		if ti.Editor && (ti.Addable || !ti.Remote || ti.LockWord == "" || ti.OAuth) {
			t.Errorf("%s: an editor transport is remote, has a lock-file word, and is neither addable nor signed in to", ti.Name)
		}
		if !ti.Editor && (ti.TokenHeader != "" || ti.LockWord != "") {
			t.Errorf("%s: only editor transports carry a token header or a lock-file word", ti.Name)
		}
	}
	if h := TransportWSIDE.Info().TokenHeader; h != "x-claude-code-ide-authorization" {
		t.Errorf("ws-ide token header = %q", h)
	}
	if h := TransportSSEIDE.Info().TokenHeader; h != "" {
		t.Errorf("sse-ide sends a token header %q; it connects with none", h)
	}
	for word, want := range map[string]Transport{"ws": TransportWSIDE, "sse": TransportSSEIDE, "": TransportSSEIDE, "stdio": "", "WS": ""} {
		got, ok := EditorTransport(word)
		if ok != (want != "") || got.Name != want {
			t.Errorf("EditorTransport(%q) = %q, %v; want %q", word, got.Name, ok, want)
		}
	}
}

// TestLoopbackHost: loopback names and addresses only; a name that merely
// starts like one, or a zone, is not.
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "localhost": true, "LOCALHOST": true,
		"::ffff:127.0.0.1": true, "10.0.0.1": false, "0.0.0.0": false, "::": false, "localhost.evil.example": false,
		"127.0.0.1.nip.io": false, "fe80::1%lo": false, "": false, "example.com": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
