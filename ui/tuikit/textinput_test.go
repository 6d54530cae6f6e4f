package tuikit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// pasteMsgs runs cmd and the commands of any batch it returns, and names
// the messages that came from a clipboard read (the bubbles fields' paste
// messages: what their Paste command returns after running the clipboard
// program).
func pasteMsgs(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	var out []string
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, pasteMsgs(c)...)
		}
	default:
		if ty := reflect.TypeOf(msg); ty != nil && strings.HasPrefix(ty.Name(), "paste") {
			out = append(out, ty.String())
		}
	}
	return out
}

// TestTextFieldsStartNoClipboardProgram: ctrl+v in a text field of
// mcpdeck's reads no clipboard (which would run xclip, xsel, wl-paste or
// pbpaste outside the launcher); typed text still arrives.
func TestTextFieldsStartNoClipboardProgram(t *testing.T) {
	ctrlV := tea.KeyMsg{Type: tea.KeyCtrlV}
	ti := NewTextInput()
	ti.Focus()
	ti, cmd := ti.Update(ctrlV)
	if got := pasteMsgs(cmd); len(got) > 0 {
		t.Errorf("ctrl+v in a text input read the clipboard: %v", got)
	}
	ti, _ = ti.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ok"), Paste: true})
	if ti.Value() != "ok" {
		t.Errorf("a terminal's paste gave %q", ti.Value())
	}
	ta := NewTextArea()
	ta.Focus()
	_, cmd = ta.Update(ctrlV)
	if got := pasteMsgs(cmd); len(got) > 0 {
		t.Errorf("ctrl+v in a text area read the clipboard: %v", got)
	}
}

// TestTextFieldsMadeHere: no screen makes a bubbles text field itself, so
// none has the clipboard key on.
func TestTextFieldsMadeHere(t *testing.T) {
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if filepath.Base(filepath.Dir(path)) == "tuikit" && d.Name() == "textinput.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
				if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "textinput" || id.Name == "textarea") {
					t.Errorf("%s calls %s.New: use tuikit.NewTextInput/NewTextArea", path, id.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
