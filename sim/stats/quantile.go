package stats

// HistQuantile returns the bin of the q-quantile (0 < q ≤ 1) of the
// values counted by a histogram (counts[i] values in bin i, the bins in
// increasing order): the first bin i such that at least ⌈q·n⌉ of the n
// values lie in bins 0..i (the inverse of the empirical distribution
// function). With no values it is −1.
func HistQuantile(counts []int64, q float64) int {
	var n int64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return -1
	}
	need := int64(q * float64(n))
	if float64(need) < q*float64(n) {
		need++
	}
	need = max(need, 1)
	var cum int64
	for i, c := range counts {
		cum += c
		if cum >= need {
			return i
		}
	}
	return len(counts) - 1
}
