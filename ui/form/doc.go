// Package form turns a JSON Schema into a form the person fills in: the
// schema read into fields (Parse), the huh fields editing them, their
// values checked field by field and against the whole schema, resource
// template forms (Template), and the modal that shows a form, asks the
// server for completions and hands the values to its Submit (Modal).
package form
