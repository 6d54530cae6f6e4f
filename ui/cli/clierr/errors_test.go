package clierr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestSentence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: server x is already defined in /f", model.ErrExists), "server x is already defined in /f."},
		{fmt.Errorf("%w: no server named y", model.ErrNotFound), "no server named y."},
		{fmt.Errorf("%w: a\n  b.", model.ErrInvalid), "a b."},
		{errors.New("did you mean x?"), "did you mean x?"},
	}
	for _, tt := range tests {
		if got := Sentence(tt.err); got != tt.want {
			t.Errorf("sentence(%q) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
