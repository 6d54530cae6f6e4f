package engcmd

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// printStderrLog is `logs SERVER --stderr`: what the stdio server wrote on
// stderr, as every run that started it saved it (<cache dir>/logs, the
// older file first when it was rotated), each line sanitized and masked
// with the run's secrets. The server is not started.
func printStderrLog(g *clicore.Globals, name string) error {
	lo, err := g.SecretLoadOptions() // the secrets to mask, as the servers had them
	if err != nil {
		return err
	}
	res, err := g.Load(lo)
	if err != nil {
		return err
	}
	srv, ok := res.Server(name)
	if !ok {
		return clisession.UnknownServer(name, clinames.ServerNames(res))
	}
	cache, err := platform.CacheDir()
	if err != nil {
		return err
	}
	path := transports.LogPath(filepath.Join(cache, "logs"), srv.Name)
	mask := g.RunMask()
	printed := 0
	for _, p := range []string{path + ".1", path} {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fmt.Fprintln(g.Stdout, mask.Mask(textsafe.SanitizeLine(sc.Text())))
			printed++
		}
		_ = f.Close()
	}
	if printed == 0 {
		fmt.Fprintln(g.Stderr, textsafe.SanitizeLine("mcpdeck: "+srv.Name+" has written nothing on stderr yet ("+path+")"))
	}
	return nil
}
