package cliout

import (
	"bytes"
	"testing"
)

// TestTermLineStaysUnderMessages: a message printed while the progress
// line is drawn takes its place, and the line is drawn again under it;
// Clear erases it, and later messages are left alone.
func TestTermLineStaysUnderMessages(t *testing.T) {
	var raw bytes.Buffer
	tw := NewTerminalWriter(&raw)
	l := &TermLine{tw: tw, width: 12}
	tw.line = l
	l.Draw("progress 1/3\x1b[2J and more")
	if _, err := tw.Write([]byte("f warning: x\n")); err != nil {
		t.Fatal(err)
	}
	l.Draw("progress 2/3")
	l.Clear()
	if _, err := tw.Write([]byte("result\n")); err != nil {
		t.Fatal(err)
	}
	want := "\r\x1b[2Kprogress 1…" + "\r\x1b[2Kf warning: x\nprogress 1…" + "\r\x1b[2Kprogress 2…" + "\r\x1b[2K" + "result\n"
	if got := raw.String(); got != want {
		t.Errorf("terminal got %q\nwant         %q", got, want)
	}
}
