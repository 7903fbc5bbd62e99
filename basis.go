package ngca

// The basis values of one coordinate and the sums of its target terms
// (fillBasis), and the same fused with the Gram matrix (addBasisGram).
// With AVX2 the rows run four at a time, one per lane (basis4AVX): the
// lanes perform each row's operations of basisRow in the same order, so
// every value and every sum is the same bits as the plain loop's.

// addBasis sets psi[k·ldp+p] (psi nil: not wanted) to the basis values
// of rows k < len(cj) at the points of xj, and adds their terms to s[k]
// in the order of the points; kt, cj, xj, a and curv are as in fillBasis.
// Called chunk after chunk of points with the same s, it gives the sums
// of one call over all of them.
func addBasis(psi []float64, ldp int, s, kt []float64, ldk int, cj, xj, a []float64, curv float64) {
	m := len(xj)
	m4 := m &^ 3
	row := func(k, from int) {
		var prow, ak []float64
		if psi != nil {
			prow = psi[k*ldp+from : k*ldp+m]
		}
		if a != nil {
			ak = a[from:m]
		}
		s[k] = basisRow(prow, kt[k*ldk+from:], xj[from:], ak, cj[k], curv, s[k])
	}
	k := 0
	if useAVX && m4 > 0 {
		var a4 []float64
		if a != nil {
			a4 = a[:m4]
		}
		for ; k+4 <= len(cj); k += 4 {
			var p4 []float64
			if psi != nil {
				p4 = psi[k*ldp:]
			}
			basis4(p4, ldp, kt[k*ldk:], ldk, (*[4]float64)(cj[k:k+4]), xj[:m4], a4, curv, (*[4]float64)(s[k:k+4]))
			for r := k; r < k+4 && m4 < m; r++ {
				row(r, m4)
			}
		}
	}
	for ; k < len(cj); k++ {
		row(k, 0)
	}
}

// fusedGram reports whether addBasisGram serves b centers: with AVX2 and
// whole tiles of four rows, where its sums are those of fillBasis and
// addGram.
func fusedGram(b int) bool { return useAVX && b%4 == 0 }

// addBasisGram is fillBasis followed by addGram (psi b×m), for
// b = len(cj) with fusedGram(b), but with the basis values formed one
// chunk of gramChunk points at a time into buf (at least b·gramChunk) and
// added to g while the chunk is in cache: the same tiles over the same
// chunks, so the same sums. s (b) is workspace.
func addBasisGram(g, h, buf, s, kt []float64, ldk int, cj, xj, a []float64, curv float64) {
	b, m := len(cj), len(xj)
	m4 := m &^ 3
	clear(s[:b])
	chunk := func(lo, hi int) []float64 {
		w := hi - lo
		var ac []float64
		if a != nil {
			ac = a[lo:hi]
		}
		psi := buf[:b*w]
		addBasis(psi, w, s, kt[lo:], ldk, cj, xj[lo:hi], ac, curv)
		return psi
	}
	for p0 := 0; p0 < m4; p0 += gramChunk {
		w := min(gramChunk, m4-p0)
		gramTiles(g, chunk(p0, p0+w), w, b, w)
	}
	if m4 < m {
		gramTail(g, chunk(m4, m), m-m4, b, m-m4)
	}
	for k, v := range s[:b] {
		h[k] += v
	}
}
