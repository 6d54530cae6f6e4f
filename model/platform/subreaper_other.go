//go:build !linux

package platform

// BecomeSubreaper does nothing: only Linux has child subreapers (Windows
// jobs and Unix process groups are what ends a group's processes there).
func BecomeSubreaper() error { return nil }

// EndStrays does nothing: without a tag to find them by, a group's
// processes end with the group (Group.Signal, the Windows job).
func EndStrays() {}
