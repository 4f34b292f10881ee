//go:build goexperiment.simd && amd64

package nnue

import "simd/archsimd"

// available is decided once from the CPU's features.
var available = func() []*kernels {
	var ks []*kernels
	if archsimd.X86.AVX512() {
		ks = append(ks, avx512Kernels)
	}
	if archsimd.X86.AVX2() {
		ks = append(ks, avx2Kernels)
	}
	return append(ks, pureKernels)
}()

func availableKernels() []*kernels { return available }

// avx2Kernels work on 16 int16 lanes (256-bit registers).
var avx2Kernels = &kernels{
	name:         "avx2",
	copyAdd:      copyAddAVX2,
	copySub:      copySubAVX2,
	addSub:       addSubAVX2,
	addSubSub:    addSubSubAVX2,
	addAddSubSub: addAddSubSubAVX2,
	dotCReLU:     dotCReLUAVX2,
	dotSCReLU:    dotSCReLUAVX2,
}

// avx512Kernels work on 32 int16 lanes (512-bit registers), finishing a
// length that is an odd multiple of 16 with one 256-bit step.
var avx512Kernels = &kernels{
	name:         "avx512",
	copyAdd:      copyAddAVX512,
	copySub:      copySubAVX512,
	addSub:       addSubAVX512,
	addSubSub:    addSubSubAVX512,
	addAddSubSub: addAddSubSubAVX512,
	dotCReLU:     dotCReLUAVX512,
	dotSCReLU:    dotSCReLUAVX512,
}

// Every kernel ends with ClearAVXUpperBits (VZEROUPPER): the compiler does
// not emit it, and the SSE code Go runs after a kernel (its zero register,
// copies, floats) otherwise pays for the dirty upper halves of the vector
// registers. This and sum8 in registers gave engine bench 1.30x the nodes a
// second (idle Intel Xeon).

func ld16(s []int16, i int) archsimd.Int16x16 {
	return archsimd.LoadInt16x16((*[16]int16)(s[i : i+16]))
}
func ld32(s []int16, i int) archsimd.Int16x32 {
	return archsimd.LoadInt16x32((*[32]int16)(s[i : i+32]))
}
func st16(s []int16, i int, x archsimd.Int16x16) { x.Store((*[16]int16)(s[i : i+16])) }
func st32(s []int16, i int, x archsimd.Int16x32) { x.Store((*[32]int16)(s[i : i+32])) }

func copyAddAVX2(dst, src, a []int16) {
	for i := 0; i+16 <= len(dst); i += 16 {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func copySubAVX2(dst, src, s []int16) {
	for i := 0; i+16 <= len(dst); i += 16 {
		st16(dst, i, ld16(src, i).Sub(ld16(s, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addSubAVX2(dst, src, a, s []int16) {
	for i := 0; i+16 <= len(dst); i += 16 {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)).Sub(ld16(s, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addSubSubAVX2(dst, src, a, s1, s2 []int16) {
	for i := 0; i+16 <= len(dst); i += 16 {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)).Sub(ld16(s1, i)).Sub(ld16(s2, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addAddSubSubAVX2(dst, src, a1, a2, s1, s2 []int16) {
	for i := 0; i+16 <= len(dst); i += 16 {
		st16(dst, i, ld16(src, i).Add(ld16(a1, i)).Add(ld16(a2, i)).Sub(ld16(s1, i)).Sub(ld16(s2, i)))
	}
	archsimd.ClearAVXUpperBits()
}

// sum8 adds the lanes of x with int32 wrap-around, in registers: through
// memory (a store and the loads of its halves) it stalled the output layer.
func sum8(x archsimd.Int32x8) int32 {
	v := x.GetLo().Add(x.GetHi())
	v = v.Add(v.PermuteScalars(2, 3, 0, 1))
	v = v.Add(v.PermuteScalars(1, 0, 3, 2))
	return v.GetElem(0)
}

func dotCReLUAVX2(us, them, w []int16) int32 {
	h := len(us)
	zero, qa := archsimd.BroadcastInt16x16(0), archsimd.BroadcastInt16x16(QA)
	acc0, acc1 := archsimd.BroadcastInt32x8(0), archsimd.BroadcastInt32x8(0)
	for i := 0; i+16 <= h; i += 16 {
		cu := ld16(us, i).Max(zero).Min(qa)
		ct := ld16(them, i).Max(zero).Min(qa)
		acc0 = acc0.Add(cu.DotProductPairs(ld16(w, i)))
		acc1 = acc1.Add(ct.DotProductPairs(ld16(w, h+i)))
	}
	sum := sum8(acc0.Add(acc1))
	archsimd.ClearAVXUpperBits()
	return sum
}

func dotSCReLUAVX2(us, them, w []int16) int32 {
	h := len(us)
	zero, qa := archsimd.BroadcastInt16x16(0), archsimd.BroadcastInt16x16(QA)
	acc0, acc1 := archsimd.BroadcastInt32x8(0), archsimd.BroadcastInt32x8(0)
	for i := 0; i+16 <= h; i += 16 {
		cu := ld16(us, i).Max(zero).Min(qa)
		ct := ld16(them, i).Max(zero).Min(qa)
		acc0 = acc0.Add(cu.Mul(ld16(w, i)).DotProductPairs(cu))
		acc1 = acc1.Add(ct.Mul(ld16(w, h+i)).DotProductPairs(ct))
	}
	sum := sum8(acc0.Add(acc1))
	archsimd.ClearAVXUpperBits()
	return sum
}

func copyAddAVX512(dst, src, a []int16) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		st32(dst, i, ld32(src, i).Add(ld32(a, i)))
	}
	if i < len(dst) {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func copySubAVX512(dst, src, s []int16) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		st32(dst, i, ld32(src, i).Sub(ld32(s, i)))
	}
	if i < len(dst) {
		st16(dst, i, ld16(src, i).Sub(ld16(s, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addSubAVX512(dst, src, a, s []int16) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		st32(dst, i, ld32(src, i).Add(ld32(a, i)).Sub(ld32(s, i)))
	}
	if i < len(dst) {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)).Sub(ld16(s, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addSubSubAVX512(dst, src, a, s1, s2 []int16) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		st32(dst, i, ld32(src, i).Add(ld32(a, i)).Sub(ld32(s1, i)).Sub(ld32(s2, i)))
	}
	if i < len(dst) {
		st16(dst, i, ld16(src, i).Add(ld16(a, i)).Sub(ld16(s1, i)).Sub(ld16(s2, i)))
	}
	archsimd.ClearAVXUpperBits()
}

func addAddSubSubAVX512(dst, src, a1, a2, s1, s2 []int16) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		st32(dst, i, ld32(src, i).Add(ld32(a1, i)).Add(ld32(a2, i)).Sub(ld32(s1, i)).Sub(ld32(s2, i)))
	}
	if i < len(dst) {
		st16(dst, i, ld16(src, i).Add(ld16(a1, i)).Add(ld16(a2, i)).Sub(ld16(s1, i)).Sub(ld16(s2, i)))
	}
	archsimd.ClearAVXUpperBits()
}

// sum16 adds the lanes of x with int32 wrap-around.
func sum16(x archsimd.Int32x16) int32 {
	return sum8(x.GetLo().Add(x.GetHi()))
}

func dotCReLUAVX512(us, them, w []int16) int32 {
	h := len(us)
	zero, qa := archsimd.BroadcastInt16x32(0), archsimd.BroadcastInt16x32(QA)
	acc0, acc1 := archsimd.BroadcastInt32x16(0), archsimd.BroadcastInt32x16(0)
	i := 0
	for ; i+32 <= h; i += 32 {
		cu := ld32(us, i).Max(zero).Min(qa)
		ct := ld32(them, i).Max(zero).Min(qa)
		acc0 = acc0.Add(cu.DotProductPairs(ld32(w, i)))
		acc1 = acc1.Add(ct.DotProductPairs(ld32(w, h+i)))
	}
	sum := sum16(acc0.Add(acc1))
	if i < h {
		sum += creluDot16(us, w, i, i) + creluDot16(them, w, i, h+i)
	}
	archsimd.ClearAVXUpperBits()
	return sum
}

func dotSCReLUAVX512(us, them, w []int16) int32 {
	h := len(us)
	zero, qa := archsimd.BroadcastInt16x32(0), archsimd.BroadcastInt16x32(QA)
	acc0, acc1 := archsimd.BroadcastInt32x16(0), archsimd.BroadcastInt32x16(0)
	i := 0
	for ; i+32 <= h; i += 32 {
		cu := ld32(us, i).Max(zero).Min(qa)
		ct := ld32(them, i).Max(zero).Min(qa)
		acc0 = acc0.Add(cu.Mul(ld32(w, i)).DotProductPairs(cu))
		acc1 = acc1.Add(ct.Mul(ld32(w, h+i)).DotProductPairs(ct))
	}
	sum := sum16(acc0.Add(acc1))
	if i < h {
		sum += screluDot16(us, w, i, i) + screluDot16(them, w, i, h+i)
	}
	archsimd.ClearAVXUpperBits()
	return sum
}

// creluDot16 and screluDot16 are the 16 lanes from x[i] and w[j] that a
// 512-bit loop leaves over.
func creluDot16(x, w []int16, i, j int) int32 {
	c := ld16(x, i).Max(archsimd.BroadcastInt16x16(0)).Min(archsimd.BroadcastInt16x16(QA))
	return sum8(c.DotProductPairs(ld16(w, j)))
}

func screluDot16(x, w []int16, i, j int) int32 {
	c := ld16(x, i).Max(archsimd.BroadcastInt16x16(0)).Min(archsimd.BroadcastInt16x16(QA))
	return sum8(c.Mul(ld16(w, j)).DotProductPairs(c))
}
