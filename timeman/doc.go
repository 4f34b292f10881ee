// Package timeman is time management shared by both searchers: the limits
// a "go" command sets, and the clock that turns them into a soft and a hard
// deadline without ever letting the engine lose on time.
package timeman
