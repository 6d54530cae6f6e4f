package styles

import "testing"

func TestBackgroundQuerySkippedWhereUseless(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, false},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"TERM": "tmux-256color"}, false},
		{map[string]string{"TERM": "screen"}, false},
		{map[string]string{}, false},
	} {
		if got := wantsBackgroundQuery(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: query = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestParseBackgroundReply(t *testing.T) {
	for _, tc := range []struct {
		reply    string
		dark, ok bool
	}{
		{"\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[12;1R", false, true},
		{"\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[1;1R", true, true},
		{"\x1b]11;rgb:fd/f6/e3\x07", false, true}, // solarized light, two digits
		{"\x1b]11;rgb:28/2c/34\x07", true, true},
		{"\x1b[1;1R", false, false}, // answered the position only
		{"", false, false},
		{"\x1b]11;not-a-colour\x07", false, false},
		{"\x1b]11;rgb:ffff/ffff/ffff", false, false}, // cut short
	} {
		dark, ok := parseBackgroundReply([]byte(tc.reply))
		if dark != tc.dark || ok != tc.ok {
			t.Errorf("%q: dark %v ok %v, want %v %v", tc.reply, dark, ok, tc.dark, tc.ok)
		}
	}
	if !replyComplete([]byte("\x1b]11;rgb:0/0/0\x07\x1b[24;80R")) || replyComplete([]byte("\x1b]11;rgb:0/0/0\x07")) {
		t.Error("replyComplete")
	}
}
