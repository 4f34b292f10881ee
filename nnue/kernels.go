package nnue

// kernels is one implementation of the network's arithmetic. Every slice
// argument of the update kernels has the same length H (a multiple of 16);
// dst may be src. The dot kernels take the two perspectives' accumulators
// (H each) and the 2H output weights and return the int32 sum the package
// comment defines, wrapping on overflow.
type kernels struct {
	name         string
	copyAdd      func(dst, src, a []int16)              // dst = src + a
	copySub      func(dst, src, s []int16)              // dst = src - s
	addSub       func(dst, src, a, s []int16)           // dst = src + a - s (a quiet move)
	addSubSub    func(dst, src, a, s1, s2 []int16)      // dst = src + a - s1 - s2 (a capture)
	addAddSubSub func(dst, src, a1, a2, s1, s2 []int16) // dst = src + a1 + a2 - s1 - s2 (castling)
	dotCReLU     func(us, them, w []int16) int32        // Σ c(x)*w
	dotSCReLU    func(us, them, w []int16) int32        // Σ int16(c(x)*w)*c(x)
}

// pureKernels is the plain Go path: the reference the vector paths must
// match bit for bit, and the path of builds without GOEXPERIMENT=simd and
// of CPUs without AVX2.
var pureKernels = &kernels{
	name:         "go",
	copyAdd:      copyAddGo,
	copySub:      copySubGo,
	addSub:       addSubGo,
	addSubSub:    addSubSubGo,
	addAddSubSub: addAddSubSubGo,
	dotCReLU:     dotCReLUGo,
	dotSCReLU:    dotSCReLUGo,
}

// Kernels names the kernels this build can run on this CPU, fastest first;
// new networks use the first.
func Kernels() []string {
	var names []string
	for _, k := range availableKernels() {
		names = append(names, k.name)
	}
	return names
}

// bestKernels returns the fastest kernels available.
func bestKernels() *kernels { return availableKernels()[0] }

// kernelsByName returns the named kernels, or nil if unavailable.
func kernelsByName(name string) *kernels {
	for _, k := range availableKernels() {
		if k.name == name {
			return k
		}
	}
	return nil
}

// The Go update kernels index every slice with the same i; re-slicing to
// len(dst) lets the compiler drop the bounds checks inside the loops.
// (Packing four lanes in a uint64 measured no faster: these loops already
// run at about a lane per cycle.)

func copyAddGo(dst, src, a []int16) {
	src, a = src[:len(dst)], a[:len(dst)]
	for i := range dst {
		dst[i] = src[i] + a[i]
	}
}

func copySubGo(dst, src, s []int16) {
	src, s = src[:len(dst)], s[:len(dst)]
	for i := range dst {
		dst[i] = src[i] - s[i]
	}
}

func addSubGo(dst, src, a, s []int16) {
	src, a, s = src[:len(dst)], a[:len(dst)], s[:len(dst)]
	for i := range dst {
		dst[i] = src[i] + a[i] - s[i]
	}
}

func addSubSubGo(dst, src, a, s1, s2 []int16) {
	src, a, s1, s2 = src[:len(dst)], a[:len(dst)], s1[:len(dst)], s2[:len(dst)]
	for i := range dst {
		dst[i] = src[i] + a[i] - s1[i] - s2[i]
	}
}

func addAddSubSubGo(dst, src, a1, a2, s1, s2 []int16) {
	src, a1, a2, s1, s2 = src[:len(dst)], a1[:len(dst)], a2[:len(dst)], s1[:len(dst)], s2[:len(dst)]
	for i := range dst {
		dst[i] = src[i] + a1[i] + a2[i] - s1[i] - s2[i]
	}
}

// crelu clamps an accumulator value to 0..QA.
func crelu(x int16) int16 { return min(max(x, 0), QA) }

// The Go dot kernels keep four partial sums, so the additions of
// neighbouring lanes do not wait on one another (about 1.4 times faster
// than one sum; int32 wrap-around makes the order irrelevant to the
// result). H is a multiple of 16, so no lanes are left over.

func dotCReLUGo(us, them, w []int16) int32 {
	h := len(us)
	return creluDotGo(us, w[:h]) + creluDotGo(them[:h], w[h:2*h])
}

func dotSCReLUGo(us, them, w []int16) int32 {
	h := len(us)
	return screluDotGo(us, w[:h]) + screluDotGo(them[:h], w[h:2*h])
}

func creluDotGo(x, w []int16) int32 {
	var s0, s1, s2, s3 int32
	for i := 0; i+4 <= len(x); i += 4 {
		x4, w4 := x[i:i+4:i+4], w[i:i+4:i+4]
		s0 += int32(crelu(x4[0])) * int32(w4[0])
		s1 += int32(crelu(x4[1])) * int32(w4[1])
		s2 += int32(crelu(x4[2])) * int32(w4[2])
		s3 += int32(crelu(x4[3])) * int32(w4[3])
	}
	return s0 + s1 + s2 + s3
}

// screluDotGo takes c*w in int16 (wrapping, as VPMULLW does), then times c.
func screluDotGo(x, w []int16) int32 {
	var s0, s1, s2, s3 int32
	for i := 0; i+4 <= len(x); i += 4 {
		x4, w4 := x[i:i+4:i+4], w[i:i+4:i+4]
		c0, c1, c2, c3 := crelu(x4[0]), crelu(x4[1]), crelu(x4[2]), crelu(x4[3])
		s0 += int32(c0*w4[0]) * int32(c0)
		s1 += int32(c1*w4[1]) * int32(c1)
		s2 += int32(c2*w4[2]) * int32(c2)
		s3 += int32(c3*w4[3]) * int32(c3)
	}
	return s0 + s1 + s2 + s3
}
