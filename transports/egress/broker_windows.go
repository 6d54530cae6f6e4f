//go:build windows

package egress

import (
	"errors"
	"os"
)

// StartBroker exists for the build: no sandbox runs on Windows.
func StartBroker(string) (*os.File, func(), error) {
	return nil, nil, errors.New("the egress broker runs only on Linux and macOS")
}
