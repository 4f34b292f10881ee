// Package regularfile reads a file a user named (a network, an opening
// book) only if it is a regular file of bounded size. Anything else is
// refused before it is read: a FIFO or a terminal (/dev/stdin) would block
// or swallow the UCI input, and a device such as /dev/zero never ends.
package regularfile
