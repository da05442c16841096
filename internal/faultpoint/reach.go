//go:build !faultinject

package faultpoint

// Reach marks the fault point name; see the package comment.
func Reach(name string) {}
