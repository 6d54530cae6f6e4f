// Package engcmd holds the commands that start an engine session to use
// what servers offer: tools, resources and prompts (listings), call, read
// and prompt, skills and skill, logs, and context (what each server's
// listings cost a model's context).
package engcmd
