// Package loop runs the AlphaZero training loop of `engine train`, resumable
// from its run directory: self-play with the best network, training of one
// network continuously (a Trainer: PyTorch's azero/train scripts in the
// engine), the gate between the new network and the best, and every few
// iterations the best network's climb of the ladder.
//
// It also runs the rounds of `engine climb` (RunRounds), the recipe that
// made the shipped network: round after round, many self-play games of
// the current network, a sample set of them with the newest held out,
// training from the current network in learning-rate segments, the ladder,
// and promotion only when the candidate passes PromotionTest.
//
// Networks come through Config.Load and training through Config.Trainer,
// so the loop's logic (phases, resumption, refusals, gating, records) is
// tested with stand-ins, without PyTorch or ONNX Runtime.
package loop
