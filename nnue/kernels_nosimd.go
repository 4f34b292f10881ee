//go:build !(goexperiment.simd && amd64)

package nnue

// Without GOEXPERIMENT=simd (or off amd64) only the Go kernels exist.
func availableKernels() []*kernels { return []*kernels{pureKernels} }
