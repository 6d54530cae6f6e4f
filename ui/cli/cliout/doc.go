// Package cliout holds how commands print: the one sanitizing writer all
// output passes (NewTerminalWriter), JSON output (WriteJSON, streamed and
// escaped), errors as JSON lines, a result's contents, and the one
// progress line redrawn on a terminal's stderr.
package cliout
