package nnue

// Only the Go kernels exist so far.
func availableKernels() []*kernels { return []*kernels{pureKernels} }
