// Package eval scores a position for the side to move in centipawns.
//
// The evaluation is tapered: every term has a middlegame and an endgame
// weight, blended by the material left on the board (the game phase). Every
// term is linear in its weight (weight x count, White's count minus Black's),
// so the whole evaluation is a dot product of a weight vector with a feature
// vector. That is what makes Texel tuning simple and fast: the tuner records
// the features of each training position once (Trace) and fits the weights
// by gradient descent without calling the evaluation again.
package eval
