package doctor

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// bundleInput is what `doctor --bundle` puts in the archive: the loaded
// configuration, the report doctor printed, and what the servers did.
type bundleInput struct {
	res     *config.Resolved
	report  []docLine
	run     doctorRun
	version string // clicore.BuildVersion(): what version.txt says this binary is
}

// bundleRoot is the directory every file of the archive lies in.
const bundleRoot = "mcpdeck-bundle/"

// bundle is an archive being assembled: every file passes one Masker (the
// servers' expanded secret values and every stored credential), which
// counts what it masked; files that still hold something that looks like
// a credential are noted, not guessed at.
type bundle struct {
	mask   *textsafe.Masker
	judge  *textsafe.TokenJudge
	files  []bundleFile
	masked int
	unsure []string // what the bundle could not judge, one sentence each
	// expanded names each value expansion put into a definition (expansionNotes)
	expanded []string
}

type bundleFile struct{ name, body string }

// bundleReport says what was written.
type bundleReport struct {
	path   string
	files  int
	size   int64
	masked int
	unsure []string
}

// writeBundle writes the archive to path, a new file (0600, never through
// a symbolic link, never over an existing file). A failed write leaves no
// file behind.
func writeBundle(ctx context.Context, g *clicore.Globals, path string, in bundleInput) (bundleReport, error) {
	secrets, serr := bundleSecrets(ctx, g, in.res)
	b := assembleBundle(in, secrets, serr)
	size, err := b.write(path)
	if err != nil {
		return bundleReport{}, err
	}
	return bundleReport{path: path, files: len(b.files), size: size, masked: b.masked, unsure: b.unsure}, nil
}

// assembleBundle builds every file of the archive from in, masking
// secrets; serr is why the stored credentials could not all be read.
func assembleBundle(in bundleInput, secrets []string, serr error) *bundle {
	b := &bundle{mask: textsafe.NewMasker(secrets...), judge: textsafe.NewTokenJudge(ownValues(in)...)}
	b.expanded = expansionNotes(in.res)
	if serr != nil {
		b.unsure = append(b.unsure, "stored credentials could not all be read ("+b.mask.Mask(serr.Error())+"): one a server echoed would not be masked")
	}
	b.addText("version.txt", fmt.Sprintf("mcpdeck %s\nos/arch %s/%s\nwritten %s\n", in.version, runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format(time.RFC3339)))
	var report strings.Builder
	for _, l := range in.report {
		report.WriteString(l.String() + "\n")
	}
	b.addText("doctor.txt", report.String())
	b.addConfig(in.res)
	for i, srv := range in.run.snap.Servers {
		dir := fmt.Sprintf("servers/%02d-%s/", i+1, fileSafe(srv.Name))
		frames := in.run.traffic[srv.Name]
		b.addState(dir+"state.json", srv, len(frames), in.run.dropped[srv.Name])
		b.addText(dir+"stderr.txt", strings.Join(srv.StderrTail, "\n"))
		b.addTraffic(dir+"traffic.jsonl", srv.Name, frames)
	}
	// mcpdeck's own words about the other files: nothing to mask in them.
	b.files = append(b.files, bundleFile{name: "REDACTION.txt", body: b.summary()})
	return b
}

// bundleSecrets is every secret value the bundle must not show: each
// server's expanded env, header, URL and argument secrets and the values it
// took from mcpdeck's secret store (model.Server.Secrets), and every
// credential mcpdeck keeps (oauth.Manager.StoredSecrets).
func bundleSecrets(ctx context.Context, g *clicore.Globals, res *config.Resolved) ([]string, error) {
	var out []string
	for _, s := range res.Servers {
		out = append(out, s.Secrets()...)
	}
	lo, err := g.LoadOptions()
	if err != nil {
		return out, err
	}
	stored, err := clisession.NewOAuthManager(lo, io.Discard, false).StoredSecrets(ctx, res.Servers)
	return append(out, stored...), err
}

// ownValues are the texts mcpdeck itself produced or found, whose words
// may look like tokens but are not secrets: its own version and commit,
// the config files it read and the directories it keeps state in, the
// servers' sources, commands and working directories, and the hashes it
// computed of their definitions (in the loaded config and in the engine's
// snapshot, approved hashes included). The judge passes their words, so
// what a bundle reports as unjudged is only text that came from outside.
func ownValues(in bundleInput) []string {
	res := in.res
	out := append([]string{in.version, res.ProjectRoot, res.LocalSettings}, res.Files...)
	for _, s := range res.Servers {
		out = append(out, s.Source, s.Raw.Command, s.Config.Command, s.Config.Cwd, s.Hash, s.Approval.ApprovedHash)
		for _, o := range s.Overrides {
			out = append(out, o.Source)
		}
	}
	for _, s := range in.run.snap.Servers {
		out = append(out, s.Source, s.Hash, s.Approval.ApprovedHash, s.Config.Command, s.Config.Cwd)
		for _, o := range s.Overrides {
			out = append(out, o.Source)
		}
	}
	return out
}

// add masks body and keeps it as file name.
func (b *bundle) add(name, body string) string {
	body, n := b.mask.Dump(body)
	b.masked += n
	b.files = append(b.files, bundleFile{name: name, body: body})
	return body
}

func (b *bundle) addText(name, text string) {
	b.noteUnknown(name, strings.Split(b.add(name, text), "\n"), "line")
}

// addJSON adds v indented and escaped as --json output is
// (textsafe.EscapeJSON: it holds servers' text); hidden counts values v
// itself already masks (model.Redact did), which count as masked too.
func (b *bundle) addJSON(name string, v any, hidden int) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		data = []byte(fmt.Sprintf("cannot encode: %v", err))
	}
	data = textsafe.EscapeJSON(data)
	b.masked += hidden
	b.noteUnknown(name, strings.Split(b.add(name, string(data)), "\n"), "line")
}

// noteUnknown records how many of parts (lines, frames) of file name still
// hold a word that looks like a credential.
func (b *bundle) noteUnknown(name string, parts []string, what string) {
	n := 0
	for _, p := range parts {
		if b.judge.Flags(p) {
			n++
		}
	}
	if n > 0 {
		b.unsure = append(b.unsure, fmt.Sprintf("%s%s: %d %s%s with a long mix of letters and digits that matches no secret mcpdeck knows (an id or a hash, or a key it was never given)",
			bundleRoot, name, n, what, cliargs.Plural(n)))
	}
}

// summary is REDACTION.txt: what was masked and what was kept unjudged.
func (b *bundle) summary() string {
	var s strings.Builder
	fmt.Fprintf(&s, "mcpdeck masked %d values in this bundle: env and header values, URL user info and secret query values,\n", b.masked)
	s.WriteString("Bearer/Basic credentials, JSON Web Tokens, credential fields (access_token, client_secret, API_KEY=...),\n")
	s.WriteString("every value ${VAR} and ${secret:NAME} put into a definition (URL paths and arguments too),\n")
	s.WriteString("and every token, client secret and key it stores, wherever they appeared. They read " + textsafe.Masked + ".\n")
	writeExpansions(&s, b.expanded)
	if len(b.unsure) == 0 {
		s.WriteString("\nNothing was left that it could not judge.\n")
		return s.String()
	}
	s.WriteString("\nKept unchanged, because mcpdeck could not judge them (read them before you share the bundle):\n")
	for _, u := range b.unsure {
		s.WriteString("- " + u + "\n")
	}
	return s.String()
}

// write puts the files into a tar.gz at path.
func (b *bundle) write(path string) (int64, error) {
	f, err := platform.CreatePrivate(path, true)
	if err != nil {
		return 0, fmt.Errorf("--bundle: %w", err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	now := time.Now()
	for _, file := range b.files {
		hdr := &tar.Header{Name: bundleRoot + file.name, Mode: 0o600, Size: int64(len(file.body)), ModTime: now, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err = tw.WriteHeader(hdr); err != nil {
			break
		}
		if _, err = io.WriteString(tw, file.body); err != nil {
			break
		}
	}
	err = errors.Join(err, tw.Close(), gz.Close())
	var size int64
	if st, serr := f.Stat(); serr == nil {
		size = st.Size()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return 0, fmt.Errorf("--bundle %s: %w", path, err)
	}
	return size, nil
}

// print says what was written, what was masked and what could not be
// judged.
func (r bundleReport) print(w io.Writer) {
	fmt.Fprintf(w, "bundle: wrote %s (%d files, %s): version and system, this report, the merged config with each server's scope and file, each server's state history, stderr tail and traffic\n",
		r.path, r.files, humanize.IBytes(uint64(max(r.size, 0))))
	fmt.Fprintf(w, "bundle: masked %d value%s (env, header, URL and stored secrets, tokens)\n", r.masked, cliargs.Plural(r.masked))
	if len(r.unsure) == 0 {
		fmt.Fprintln(w, "bundle: nothing left that mcpdeck could not judge")
		return
	}
	fmt.Fprintln(w, "bundle: kept unchanged, as mcpdeck could not judge them (read them before you share it):")
	for _, u := range r.unsure {
		fmt.Fprintln(w, "  "+textsafe.SanitizeLine(u))
	}
}

func fileNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// fileSafe is a server name as a file name: letters, digits, "_", "-" and
// "." kept, anything else "_", at most 40 bytes.
func fileSafe(name string) string {
	out := []byte(name)
	for i, c := range out {
		if !fileNameByte(c) {
			out[i] = '_'
		}
	}
	if len(out) > 40 {
		out = out[:40]
	}
	if len(out) == 0 || out[0] == '.' {
		return "_" + string(out)
	}
	return string(out)
}
