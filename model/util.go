package model

import "strconv"

// itoa is strconv.Itoa, short for building field paths such as "args[2]".
func itoa(i int) string { return strconv.Itoa(i) }

// quote is strconv.Quote, for names and values inside messages.
func quote(s string) string { return strconv.Quote(s) }
