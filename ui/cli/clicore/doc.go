// Package clicore holds what every command is given: the global options
// and the process's I/O (Globals), the configuration they load (with the
// run's secrets kept for masking), the --trace file, this build's version
// and the words for where a server runs. What commands share beyond that
// lives beside it, each package holding one kind of thing: clierr, cliout,
// cliargs, clinames, cliprompt and clisession.
package clicore
