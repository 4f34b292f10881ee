// Package texel tunes the evaluation weights by Texel's method: it plays
// the engine against itself to collect quiet positions labelled with the
// game's result, then fits the weights so that a sigmoid of the evaluation
// predicts the results as well as possible (least squares).
package texel
