package private

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// UntrustedLocalDir and UntrustedLocalFile name the file inside a project
// where older mcpdeck versions kept local settings. A repository can ship
// it, so it is never trusted: see UntrustedLocal.
const (
	UntrustedLocalDir  = ".mcpdeck"
	UntrustedLocalFile = "settings.local.json"
)

// MigrateLocalCommand moves an untrusted .mcpdeck/settings.local.json into
// the person's private state, after showing what it holds.
const MigrateLocalCommand = "mcpdeck mcp migrate-local"

// keyUntrustedNotice records, in the private state, which untrusted file
// (path and content hash) the person was already told about, so the notice
// is shown once per content rather than on every run.
const keyUntrustedNotice = "untrustedLocalNotice"

// UntrustedLocal is a .mcpdeck/settings.local.json at the project root.
// Older mcpdeck versions kept the person's local servers and approvals there,
// but any file in the working tree can come from the repository, so mcpdeck
// never loads it: it only tells the person once how to move it.
type UntrustedLocal struct {
	Path string `json:"path"`
	Hash string `json:"hash"` // sha256 of the file's bytes
	Told bool   `json:"told"` // the person was told about this path and content
}

// Notice is the sentence telling the person what moved and what to do.
func (u UntrustedLocal) Notice() string {
	return fmt.Sprintf("%s is inside the project, so mcpdeck no longer trusts it (a repository could ship it): "+
		"its servers, approvals and permissions are ignored; your private settings now live outside the project — "+
		"if you wrote that file, move it there with: %s", u.Path, MigrateLocalCommand)
}

// Untrusted describes the untrusted file at path, nil when there is no
// regular file there. state is the person's private state, which says
// whether they were already told about this content.
func Untrusted(path string, state *jsonfile.File) *UntrustedLocal {
	doc, ok := readRegular(path)
	if !ok {
		return nil
	}
	u := &UntrustedLocal{Path: path, Hash: contentHash(doc)}
	if state != nil {
		if n := state.Root.Get(keyUntrustedNotice); n != nil && n.Kind == '{' {
			p, h := n.Get("path"), n.Get("hash")
			u.Told = p != nil && h != nil && p.Str == u.Path && h.Str == u.Hash
		}
	}
	return u
}

// readRegular reads a regular file of at most MaxConfigSize bytes (following
// a symlink); anything else — missing, a directory, a FIFO or device that
// could block or never end — is reported as absent.
func readRegular(path string) ([]byte, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > jsonfile.MaxConfigSize {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, jsonfile.MaxConfigSize))
	return doc, err == nil
}

func contentHash(doc []byte) string {
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

// RecordUntrustedTold records, in the private state file of the project at
// root, that the person was told about u.
func RecordUntrustedTold(file, root string, u UntrustedLocal) error {
	return EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		return jsonfile.SetMember(f.Doc, []string{keyUntrustedNotice}, map[string]string{"path": u.Path, "hash": u.Hash})
	})
}
