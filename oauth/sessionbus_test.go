package oauth

import (
	"strings"
	"testing"
)

func TestSessionBusKnown(t *testing.T) {
	for _, c := range []struct {
		name  string
		env   string
		files []string
		want  bool
	}{
		{"an address", "unix:path=/run/user/1000/bus", nil, true},
		{"nothing: the library would start dbus-launch", "", nil, false},
		{"autolaunch: the same", "autolaunch:", nil, false},
		{"the runtime directory's bus", "", []string{"/run/user/1000/bus"}, true},
		{"the runtime directory's address file", "", []string{"/run/user/1000/dbus-session"}, true},
		{"another user's bus", "", []string{"/run/user/1001/bus"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "DBUS_SESSION_BUS_ADDRESS" {
					return c.env
				}
				return ""
			}
			exists := func(p string) bool {
				for _, f := range c.files {
					if strings.EqualFold(f, p) {
						return true
					}
				}
				return false
			}
			if got := sessionBusKnown(getenv, exists, 1000); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
