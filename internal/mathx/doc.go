// Package mathx holds the small integer helpers several packages need and
// the standard library lacks: an absolute value for any signed integer and
// Vigna's splitmix64 mixer, which spreads one seed into unrelated ones.
package mathx
