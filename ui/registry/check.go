package registry

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ErrUnusable is a server.json mcpdeck will not turn into a definition:
// nothing it can run, a package type it does not install, an unpinned
// version, or text that could smuggle something into the config.
var ErrUnusable = errors.New("cannot be installed")

// Bounds on what one server.json may ask for.
const (
	maxText   = 4096 // bytes of one value, default, name or URL
	maxFields = 100  // arguments, variables, env variables or headers
)

// Names and versions a package may have: what the package registries
// allow, and nothing that a runtime would read as a path, a URL, a range
// or another option.
var (
	npmName   = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$`)
	pypiName  = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)
	nugetName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	ociRef    = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(:[0-9]+)?(/[a-z0-9][a-z0-9._-]*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$|^[a-z0-9][a-z0-9._-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$`)
	version   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
	envKey    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headerKey = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")
	flagName  = regexp.MustCompile(`^--?[A-Za-z0-9][A-Za-z0-9_.-]*$`)
)

// checkText refuses a string from a server.json that cannot go into a
// config file as it is: over the size bound, not UTF-8, with a
// textsafe.HiddenRune (a control, bidi, zero-width or other invisible
// character, which a terminal or a command line would take for something
// else or not show), or with "${" (mcpdeck would expand it, reading the
// person's environment into the server).
func checkText(what, s string) error {
	switch {
	case len(s) > maxText:
		return fmt.Errorf("%w: %s is longer than %d bytes", ErrUnusable, what, maxText)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrUnusable, what)
	case strings.Contains(s, "${"):
		return fmt.Errorf("%w: %s holds a ${...} reference, which would read your environment", ErrUnusable, what)
	}
	if r, ok := textsafe.FirstHidden(s); ok {
		return fmt.Errorf("%w: %s holds the invisible or control character %U", ErrUnusable, what, r)
	}
	return nil
}

// checkVersion refuses a version that is not one pinned release: empty,
// "latest", a range or a wildcard.
func checkVersion(what, v string) error {
	if v == "" {
		return fmt.Errorf("%w: %s has no version; mcpdeck installs only a pinned version", ErrUnusable, what)
	}
	bad := !version.MatchString(v) || len(v) > 128 || strings.EqualFold(v, "latest")
	for _, seg := range strings.Split(v, ".") {
		bad = bad || seg == "x" || seg == "X"
	}
	if bad {
		return fmt.Errorf("%w: %s has the version %q, not one pinned release; mcpdeck installs only a pinned version", ErrUnusable, what, v)
	}
	return nil
}

// checkIdentifier refuses a package name its registry would not hold, such
// as a path ("../x"), a URL or a git spec, which a runtime would fetch
// from elsewhere.
func checkIdentifier(registryType, id string) error {
	var ok bool
	switch registryType {
	case "npm":
		ok = npmName.MatchString(id) && len(id) <= 214
	case "pypi":
		ok = pypiName.MatchString(id) && len(id) <= 200
	case "nuget":
		ok = nugetName.MatchString(id) && len(id) <= 200
	case "oci":
		ok = ociRef.MatchString(id) && len(id) <= 512
	}
	if !ok || strings.Contains(id, "..") {
		return fmt.Errorf("%w: %q is not a %s package name", ErrUnusable, id, registryType)
	}
	return nil
}

// checkInput checks the text of one input and of its variables.
func checkInput(what string, in Input) error {
	texts := []string{in.Value, in.Default}
	texts = append(texts, in.Choices...)
	for _, t := range texts {
		if err := checkText(what, t); err != nil {
			return err
		}
	}
	if in.Default != "" && len(in.Choices) > 0 && !slices.Contains(in.Choices, in.Default) {
		return fmt.Errorf("%w: %s has the default %q, which is not one of its choices", ErrUnusable, what, in.Default)
	}
	if len(in.Variables) > maxFields {
		return fmt.Errorf("%w: %s has more than %d variables", ErrUnusable, what, maxFields)
	}
	for _, name := range slices.Sorted(maps.Keys(in.Variables)) {
		if !envKey.MatchString(name) {
			return fmt.Errorf("%w: %s has a variable named %q", ErrUnusable, what, name)
		}
		v := in.Variables[name]
		if err := checkInput(what+" variable "+name, Input{Value: v.Value, Default: v.Default, Choices: v.Choices}); err != nil {
			return err
		}
	}
	return nil
}
