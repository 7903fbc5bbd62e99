// Package methods names the NGCA estimators the way the ngca command and
// the reproduction studies run them: a key for flags, a label for tables
// and plots, and a constructor with the paper's settings.
package methods

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ngca-go/ngca"
)

// Method is an estimator with the paper's settings.
type Method struct {
	// Key is the name used on the command line, e.g. "wflsngca".
	Key string
	// Label is the name used in tables and plots, e.g. "WF-LSNGCA".
	Label string
	// Stages lists the Progress stage names of one fit, in order.
	Stages []string
	// New returns the estimator for target dimension dim.
	New func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator
}

// The estimators of the paper's experiments.
var (
	WFLSNGCA = Method{"wflsngca", "WF-LSNGCA", []string{"lsldg", "v"},
		func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
			return &ngca.WFLSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog}
		}}
	LSNGCA = Method{"lsngca", "LSNGCA", []string{"lsldg"},
		func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
			return &ngca.LSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog}
		}}
	MIPP = Method{"mipp", "MIPP", []string{"mipp"},
		func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
			return &ngca.MIPP{Dim: dim, Workers: workers, Src: src, Progress: prog}
		}}
	// WFLSNGCARobust is WF-LSNGCA with RobustOptions' recommended setting.
	WFLSNGCARobust = Method{"wflsngca-robust", "WF-LSNGCA robust",
		[]string{"select", "lsldg", "v", "mipp", "align 1", "align 2", "compare"},
		func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
			return &ngca.WFLSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog, Robust: &ngca.RobustOptions{}}
		}}
)

// All returns every method, in the order tables list them.
func All() []Method { return []Method{WFLSNGCA, LSNGCA, MIPP, WFLSNGCARobust} }

// Parse returns the methods named in a comma-separated list of keys.
func Parse(list string) ([]Method, error) {
	var out []Method
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(strings.ToLower(k))
		if k == "" {
			continue
		}
		m, err := Lookup(k)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no method given (want some of %s)", keys())
	}
	return out, nil
}

// Lookup returns the method with the given key.
func Lookup(key string) (Method, error) {
	for _, m := range All() {
		if m.Key == key {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("unknown method %q (want one of %s)", key, keys())
}

// Keys returns the keys of ms as a comma-separated list that Parse accepts.
func Keys(ms []Method) string {
	k := make([]string, len(ms))
	for i, m := range ms {
		k[i] = m.Key
	}
	return strings.Join(k, ",")
}

func keys() string { return strings.ReplaceAll(Keys(All()), ",", ", ") }

// Fraction returns how much of one fit of m is done when the estimator
// reports p: finished stages count whole, the current one by Done/Total.
func (m Method) Fraction(p ngca.Progress) float64 {
	for i, s := range m.Stages {
		if s == p.Stage {
			return (float64(i) + float64(p.Done)/float64(max(1, p.Total))) / float64(len(m.Stages))
		}
	}
	return 0
}
