// Command bigfile writes the data of docs/big-files.md: the paper's
// artificial data (a 2-D non-Gaussian signal in Gaussian noise, turned by
// a random rotation) as CSV with a header x1..xd, and the true subspace
// as a CSV basis. With -compare it prints instead the subspace errors ε
// between the bases of fit JSON files and the truth.
//
//	go run ./scripts/bigfile -n 4000000 -d 10 -o /tmp/big.csv -truth /tmp/truth.csv
//	go run ./scripts/bigfile -compare sample.json,all.json -truth /tmp/truth.csv
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

func main() {
	n := flag.Int("n", 4000000, "rows")
	d := flag.Int("d", 10, "columns")
	seed := flag.Uint64("seed", 1, "seed of the data")
	out := flag.String("o", "big.csv", "data file")
	truth := flag.String("truth", "truth.csv", "file for the true basis")
	compare := flag.String("compare", "", "comma-separated fit JSON files to compare with each other and the truth")
	flag.Parse()
	if *compare != "" {
		if err := compareFits(strings.Split(*compare, ","), *truth); err != nil {
			log.Fatal(err)
		}
		return
	}
	x, b, err := ngcatest.Artificial{N: *n, D: *d, Rotate: true}.Sample(rand.NewPCG(*seed, 0))
	if err != nil {
		log.Fatal(err)
	}
	if err := write(*out, x, true, 7); err != nil {
		log.Fatal(err)
	}
	if err := write(*truth, b, false, -1); err != nil {
		log.Fatal(err)
	}
}

// write writes m as CSV with prec significant digits (-1: all), after a
// header x1..xd if header.
func write(path string, m *mat.Dense, header bool, prec int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r, c := m.Dims()
	if header {
		for j := 0; j < c; j++ {
			if j > 0 {
				w.WriteByte(',')
			}
			fmt.Fprintf(w, "x%d", j+1)
		}
		w.WriteByte('\n')
	}
	var buf []byte
	for i := 0; i < r; i++ {
		buf = buf[:0]
		for j := 0; j < c; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, m.At(i, j), 'g', prec, 64)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// compareFits prints ε between the bases of the fit JSON files and with
// the true basis in the CSV file truth.
func compareFits(files []string, truth string) error {
	data, err := os.ReadFile(truth)
	if err != nil {
		return err
	}
	var vals []float64
	rows := 0
	for _, line := range strings.Fields(string(data)) {
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return err
			}
			vals = append(vals, v)
		}
		rows++
	}
	t := mat.NewDense(rows, len(vals)/rows, vals)
	bases := make([]*mat.Dense, len(files))
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var r ngca.Result
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		bases[i] = r.Basis
		fmt.Printf("%s: ε to the truth %.3g\n", name, ngca.SubspaceError(t, r.Basis))
	}
	for i := range bases {
		for j := i + 1; j < len(bases); j++ {
			fmt.Printf("%s – %s: ε %.3g\n", files[i], files[j], ngca.SubspaceError(bases[i], bases[j]))
		}
	}
	return nil
}
