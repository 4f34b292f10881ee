//go:build !unix

package loop

// LockRunDir does nothing where flock is missing (Windows): there, do not
// start two loops on one run directory.
func LockRunDir(dir string) (release func(), err error) {
	return func() {}, nil
}
