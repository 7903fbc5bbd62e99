// Package asm holds the package ngca's numeric inner loops: AVX2/FMA
// assembly on amd64 with pure-Go versions (other architectures, or the
// purego build tag) that compute the same formulas. With AVX2 and FMA the
// results agree with the Go versions up to rounding, except where a
// comment says bit for bit (the basis values and AddBasisGram); the
// assembly runs only on CPUs that have both (cpu_amd64.go).
//
// The files:
//
//   - basis.go: the Gaussian-derivative basis values and target sums of one
//     coordinate (FillBasis) and the same fused with the Gram matrix
//     (AddBasisGram, FusedGram); basis_amd64.go and basis_amd64.s run four
//     basis rows at a time, one per lane, basis_other.go the Go loop.
//   - gram.go: the Gram matrices ψψᵀ (AddGram, GramChunk) and the products
//     X·Yᵀ (AddDots), in 4×2 tiles of dot products with AVX2.
//   - ls.go, ls_amd64.go, ls_amd64.s, ls_other.go: the least-squares
//     stages' kernels: the Gaussian kernel's values (Gauss, GaussRow), the
//     4×2 tiles of dot products behind gram.go and the fused rank-2 update
//     and product of the tridiagonal reduction.
//   - lanes.go, lanes_amd64.go, lanes_amd64.s, lanes_other.go: MIPP's lane
//     kernels, which evaluate Lanes index functions together (ProjectLanes,
//     GatherLanes, SincosLanes, SincosLanesStd, GaussLanes, TanhLanes);
//     lanes_amd64.s also holds GaussRow's assembly, which shares their
//     exponential.
//   - sincos.go: the fast sine, cosine, exponential and hyperbolic tangent
//     the lane kernels compute, as scalar Go (the assembly's reference).
//   - tridiag.go: the Householder reduction of a symmetric matrix to
//     tridiagonal form, A = Q·T·Qᵀ (Tridiagonalize), and Q applied from
//     its reflectors (ApplyQ, ApplyQT).
//   - cpu_amd64.go, cpu_other.go: whether the assembly runs.
package asm
