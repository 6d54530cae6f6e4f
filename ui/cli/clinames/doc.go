// Package clinames holds the names a person types and the one rule that
// says what a mistyped name most likely meant: configured servers, tools,
// prompts and resources on a server, subcommands, and "did you mean".
package clinames
