// Package cliprompt holds asking the person on the terminal: whether
// stdin and stdout are one, and a yes/no question.
package cliprompt
