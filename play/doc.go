// Package play serves games of chess over HTTP: a JSON API where each game
// has its own id and lock, live search information as Server-Sent Events,
// and the page (embedded in the binary) that plays through them. Minds are
// pluggable (see Pool); the limits in Config keep one instance on a
// network from being exhausted.
package play
