// Package jsondoc parses a JSON document into a tree that remembers where
// each value is (Parse, Node): so that every error in a configuration file
// names a line and column, duplicate keys are seen, and an edit can splice
// one member's bytes while the rest of the file stays as it was. It decodes
// values strictly (Decoder: a wrong type is a FieldError naming the field,
// never a silent zero) and encodes them as people's files want
// (MarshalNoEscape). It imports only the standard library.
package jsondoc
