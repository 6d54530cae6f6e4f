// Package scan reads what servers tell a model (model/pins items: tools,
// prompts, resource templates, instructions) for signs of tool poisoning,
// offline and with no model: instructions aimed at the model and hidden
// from the person, invisible characters (Unicode tag characters among
// them, whose hidden ASCII it spells out), references to secrets, a
// description that steers another server's tool (shadowing), addresses to
// send data to, and oversized texts. The rules are data (rules.go); each
// Finding names the server, the item, the rule and an escaped excerpt.
// SARIF writes findings for code-scanning CI. Pure.
package scan
