package orientation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/synth"
)

// Cell is one setting of the data (see synth.Spec).
type Cell struct {
	// Name identifies the cell in the files and seeds its data sets, e.g.
	// "mix n=2000 d=10 m=2 a k=1 r=1".
	Name string
	// Block is the group of cells the cell belongs to: mix, m, n or d.
	Block string
	// Signal is the name of the signal (synth.Lookup).
	Signal string
	// M, N, D are the signal's dimension, the rows and the columns.
	M, N, D int
	// R sets the noise's conditioning (condition number 10^(2R)).
	R float64
	// Mix is the number of noise columns turned with the signal, or
	// synth.Turn.
	Mix int
}

// Blocks are the names of the blocks, in the order of the study.
var Blocks = []string{"mix", "m", "n", "d", "aligned", "d50"}

// blockAbout says what the data of each block are.
var blockAbout = map[string]string{
	"mix":     "n = 2000, d = 10, m = 2: all nine signals, turned with k = 0, 1, 2, 4 noise columns or all (turn), r = 0, 1, 2",
	"m":       "n = 2000, d = 10: m = 1 (a, skewed, student) and m = 3 (a, b, c, ring, student), k = 0, 1, turn, r = 0, 1",
	"n":       "d = 10, m = 2, signals a–d and laplace, k = 0, 1, turn: n = 500 at r = 0, 1 and n = 10000 at r = 0",
	"d":       "n = 2000, d = 30, m = 2, signals a–d and laplace, k = 0, 1, 4, turn, r = 0, 1",
	"aligned": "m = 2, all nine signals on the columns (k = 0): n = 1000 and 1500, d = 10 and 30, r = 0.3 and 1",
	"d50":     "d = 50, m = 2, signals a–d and laplace, k = 0, 1, turn, r = 0: n = 2000 (below d² = 2500) and 10000",
}

// MixString writes a Mix value as the files do: the number, or "turn".
func MixString(mix int) string {
	if mix == synth.Turn {
		return "turn"
	}
	return strconv.Itoa(mix)
}

// ParseMix is the inverse of MixString.
func ParseMix(s string) (int, error) {
	if s == "turn" {
		return synth.Turn, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 {
		return 0, fmt.Errorf("mix %q is neither a count nor turn", s)
	}
	return k, nil
}

// name returns the cell's name from its fields.
func (c Cell) name() string {
	return fmt.Sprintf("%s n=%d d=%d m=%d %s k=%s r=%g", c.Block, c.N, c.D, c.M, c.Signal, MixString(c.Mix), c.R)
}

// Spec returns the data of the cell.
func (c Cell) Spec() (synth.Spec, error) {
	s, err := synth.Lookup(c.Signal)
	if err != nil {
		return synth.Spec{}, err
	}
	return synth.Spec{Signal: s, M: c.M, N: c.N, D: c.D, R: c.R, Mix: c.Mix}, nil
}

// Grid returns the cells of every signal × mix × r of one block, named as
// the study names its cells.
func Grid(block string, m, n, d int, signals []string, mixes []int, rs []float64) []Cell {
	var cells []Cell
	for _, s := range signals {
		for _, k := range mixes {
			for _, r := range rs {
				c := Cell{Block: block, Signal: s, M: m, N: n, D: d, R: r, Mix: k}
				c.Name = c.name()
				cells = append(cells, c)
			}
		}
	}
	return cells
}

// DefaultCells are the study's 370 cells: 135 of block mix, 48 of m, 45
// of n, 40 of d, 72 of aligned and 30 of d50.
func DefaultCells() []Cell {
	all := signalNames()
	five := []string{"a", "b", "c", "d", "laplace"}
	turn := synth.Turn
	var cells []Cell
	cells = append(cells, Grid("mix", 2, 2000, 10, all, []int{0, 1, 2, 4, turn}, []float64{0, 1, 2})...)
	cells = append(cells, Grid("m", 1, 2000, 10, []string{"a", "skewed", "student"}, []int{0, 1, turn}, []float64{0, 1})...)
	cells = append(cells, Grid("m", 3, 2000, 10, []string{"a", "b", "c", "ring", "student"}, []int{0, 1, turn}, []float64{0, 1})...)
	cells = append(cells, Grid("n", 2, 500, 10, five, []int{0, 1, turn}, []float64{0, 1})...)
	cells = append(cells, Grid("n", 2, 10000, 10, five, []int{0, 1, turn}, []float64{0})...)
	cells = append(cells, Grid("d", 2, 2000, 30, five, []int{0, 1, 4, turn}, []float64{0, 1})...)
	for _, n := range []int{1000, 1500} {
		for _, d := range []int{10, 30} {
			cells = append(cells, Grid("aligned", 2, n, d, all, []int{0}, []float64{0.3, 1})...)
		}
	}
	for _, n := range []int{2000, 10000} {
		cells = append(cells, Grid("d50", 2, n, 50, five, []int{0, 1, turn}, []float64{0})...)
	}
	return cells
}

// SelectCells returns the default cells of the given blocks and signals
// (nil or empty: all), in the study's order. An unknown name, or a choice
// that leaves no cell, is an error.
func SelectCells(blocks, signals []string) ([]Cell, error) {
	for _, b := range blocks {
		if !slices.Contains(Blocks, b) {
			return nil, fmt.Errorf("unknown block %q (want some of %s)", b, strings.Join(Blocks, ", "))
		}
	}
	for _, s := range signals {
		if _, err := synth.Lookup(s); err != nil {
			return nil, fmt.Errorf("unknown signal %q (want some of %s)", s, strings.Join(signalNames(), ", "))
		}
	}
	var cells []Cell
	for _, c := range DefaultCells() {
		if (len(blocks) == 0 || slices.Contains(blocks, c.Block)) && (len(signals) == 0 || slices.Contains(signals, c.Signal)) {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("no cell of blocks %v has signals %v", blocks, signals)
	}
	return cells, nil
}

// signalNames lists the names of synth.Signals.
func signalNames() []string {
	var names []string
	for _, s := range synth.Signals {
		names = append(names, s.Name)
	}
	return names
}

// WithN returns the cells with n rows instead of their own (renamed, so
// that their seeds differ too); tests use it to run small data sets.
func WithN(cells []Cell, n int) []Cell {
	out := slices.Clone(cells)
	for i := range out {
		out[i].N = n
		out[i].Name = out[i].name()
	}
	return out
}
