package asm

// The basis values of one coordinate and the sums of its target terms
// (FillBasis), and the same fused with the Gram matrix (AddBasisGram).
// With AVX2 the rows run four at a time, one per lane (basis4AVX in
// basis_amd64.s, declared in basis_amd64.go): the lanes perform each
// row's operations of basisRow in the same order, so every value and
// every sum is the same bits as the plain loop's.

// FillBasis sets psi (b×m, row-major, row k holding
// ψ_kj(x) = (c_kj − x_j)·k_k(x) at the m points of a block; nil: not
// wanted) for output coordinate j of the Gaussian-derivative basis, and
// adds to h[k] the total over the block of
//
//	r_kj(x) = ∂_j ψ_kj(x) + ψ_kj(x)·a(x) = ((c_kj − x_j)²·curv − 1 + (c_kj − x_j)·a(x))·k_k(x),
//
// the linear term of the least-squares objective; a is nil for LSLDG.
// kt holds the kernel values k_k at width σ, kt[k·ldk+p] for point p, cj
// (length b) the centers' coordinate j, xj and a the points' coordinate j
// and target term (length m), and curv = 1/σ² is the factor of
// ∂_j k_k(x) = (c_kj − x_j)·curv·k_k(x). The rows run in groups of four
// (addBasis), so h[k] receives the same bits with and without AVX2.
func FillBasis(psi, h, kt []float64, ldk int, cj, xj, a []float64, curv float64) {
	m := len(xj)
	for k := 0; k < len(cj); k += 4 {
		c := cj[k:min(k+4, len(cj))]
		var s [4]float64
		var p []float64
		if psi != nil {
			p = psi[k*m:]
		}
		addBasis(p, m, s[:len(c)], kt[k*ldk:], ldk, c, xj, a, curv)
		for r, v := range s[:len(c)] {
			h[k+r] += v
		}
	}
}

// addBasis sets psi[k·ldp+p] (psi nil: not wanted) to the basis values
// of rows k < len(cj) at the points of xj, and adds their terms to s[k]
// in the order of the points; kt, cj, xj, a and curv are as in FillBasis.
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

// FusedGram reports whether AddBasisGram serves b centers: with AVX2 and
// whole tiles of four rows (b a multiple of 4), where its sums are those
// of FillBasis and AddGram.
func FusedGram(b int) bool { return useAVX && b%4 == 0 }

// AddBasisGram adds to g (b×b, row-major, lower triangle) the products
// ψψᵀ and to h (b) the target terms of the basis values ψ (b×m) of
// FillBasis(ψ, h, kt, ldk, cj, xj, a, curv): it is FillBasis followed by
// AddGram, for b = len(cj) and m = len(xj) with FusedGram(b), but with the
// basis values formed one chunk of GramChunk points at a time into buf (at
// least b·min(m, GramChunk)) and added to g while the chunk is in cache:
// the same tiles over the same chunks, so the same sums, bit for bit.
// s (b) is workspace.
func AddBasisGram(g, h, buf, s, kt []float64, ldk int, cj, xj, a []float64, curv float64) {
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
	for p0 := 0; p0 < m4; p0 += GramChunk {
		w := min(GramChunk, m4-p0)
		gramTiles(g, chunk(p0, p0+w), w, b, w)
	}
	if m4 < m {
		gramTail(g, chunk(m4, m), m-m4, b, m-m4)
	}
	for k, v := range s[:b] {
		h[k] += v
	}
}

// basisRow computes FillBasis's values for one row k over the points of
// xj: prow[p] = (c_kj − x_pj)·k_k(x_p) unless prow is nil, and returns s
// plus the row's terms r_kj(x_p), added in the order of p.
//
// The conversions to float64 keep the compiler from fusing a product with
// a sum (as the Go specification allows, and GOAMD64=v3 does): every
// operation is rounded on its own, as in basis4AVX.
func basisRow(prow, krow, xj, a []float64, ck, curv, s float64) float64 {
	krow = krow[:len(xj)]
	switch {
	case prow != nil && a == nil:
		prow = prow[:len(xj)]
		for p, kv := range krow {
			diff := ck - xj[p]
			prow[p] = diff * kv
			s += float64((float64(diff*diff*curv) - 1) * kv)
		}
	case prow != nil:
		prow = prow[:len(xj)]
		for p, kv := range krow {
			diff := ck - xj[p]
			prow[p] = diff * kv
			s += float64((float64(diff*diff*curv) - 1 + float64(diff*a[p])) * kv)
		}
	case a != nil:
		for p, kv := range krow {
			diff := ck - xj[p]
			s += float64((float64(diff*diff*curv) - 1 + float64(diff*a[p])) * kv)
		}
	default:
		for p, kv := range krow {
			diff := ck - xj[p]
			s += float64((float64(diff*diff*curv) - 1) * kv)
		}
	}
	return s
}
