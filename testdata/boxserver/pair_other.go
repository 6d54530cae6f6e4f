//go:build !unix

package main

// socketPair has no unix sockets to pair here.
func socketPair() string { return "error: no socketpair on this system" }
