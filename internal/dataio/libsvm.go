package dataio

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca"
)

// readLIBSVM reads a LIBSVM file with ngca.ReadLIBSVM and restates its
// errors as *Error values naming the file.
func readLIBSVM(data []byte, name string, opt Options) (*Table, error) {
	if opt.LabelCol != "" {
		return nil, &Error{File: name, Msg: "a label column cannot be chosen in a LIBSVM file: its labels are the first field of every line"}
	}
	// opt.LabelIfPresent does not apply: the labels are in the file.
	x, labels, err := ngca.ReadLIBSVM(bytes.NewReader(data), opt.Features)
	if err != nil {
		return nil, libsvmError(name, err)
	}
	_, d := x.Dims()
	t := &Table{X: x, Format: LIBSVM, Labels: make([]string, len(labels)), Fields: make([]int, d)}
	for j := range t.Fields {
		t.Fields[j] = j + 1
	}
	for i, l := range labels {
		t.Labels[i] = strconv.FormatFloat(l, 'g', -1, 64)
	}
	return t, nil
}

// libsvmPos matches the position ngca.ReadLIBSVM puts in its errors.
var libsvmPos = regexp.MustCompile(`^line (\d+), column (\d+): (.*)$`)

// libsvmError restates an error of ngca.ReadLIBSVM.
func libsvmError(name string, err error) error {
	switch {
	case errors.Is(err, ngca.ErrShape):
		return &Error{File: name, Msg: "no LIBSVM data (only blank lines and comments)", empty: true}
	case !errors.Is(err, ngca.ErrFormat):
		return err
	}
	msg := strings.TrimPrefix(err.Error(), ngca.ErrFormat.Error()+": ")
	e := &Error{File: name, Msg: msg}
	if m := libsvmPos.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Col, _ = strconv.Atoi(m[2])
		e.Msg = m[3]
	}
	return e
}
