package jsondoc

import (
	"bytes"
	"encoding/json"
)

// MarshalNoEscape is json.Marshal without HTML escaping (URLs with & stay
// readable in the files people edit by hand).
func MarshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
