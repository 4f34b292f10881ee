// Package sysmem tells how much memory the machine can still give this
// process, so that a large allocation the machine cannot hold (a hash table
// of 32 GB on a 23 GB machine) is refused with a message instead of ending
// the process with Go's unrecoverable "out of memory".
package sysmem
