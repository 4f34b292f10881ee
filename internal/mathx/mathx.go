package mathx

// Signed is any signed integer type.
type Signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Abs is the absolute value of x (the minimum of its type stays negative).
func Abs[T Signed](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// SplitMix64 is Vigna's splitmix64 finaliser: distinct inputs give
// unrelated, well-mixed outputs.
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
