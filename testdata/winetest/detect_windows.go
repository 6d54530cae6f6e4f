package winetest

import "golang.org/x/sys/windows"

// Detected reports whether this process runs under Wine: Wine's ntdll
// exports wine_get_version, Windows' does not.
func Detected() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
