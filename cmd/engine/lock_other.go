//go:build !unix

package main

// lockRunDir does nothing where flock is missing (Windows): there, do not
// start two loops on one run directory.
func lockRunDir(dir string) (release func(), err error) {
	return func() {}, nil
}
