//go:build !windows

package platform

// runTreeHelper does nothing: TestKillEndsTheWholeTree is Windows'.
func runTreeHelper() {}
