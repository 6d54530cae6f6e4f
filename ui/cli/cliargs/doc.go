// Package cliargs holds what commands read from their command line: the
// positional-argument checks, enum and scope flags, and a request's
// arguments given as key=value pairs or JSON (from a flag, a file or
// stdin).
package cliargs
