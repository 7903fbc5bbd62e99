package dataio

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrSelect reports a column selection (Options.Cols, Options.Drop or
// Options.Names) that does not fit the file: an unknown name, a number out
// of range, a list that leaves no column. Such errors are *SelectError
// values; they are mistakes of the command line rather than of the data.
var ErrSelect = errors.New("bad column selection")

// SelectError is an error of a column selection. Option is the flag that
// holds it ("-cols", "-drop"), as the command names it.
type SelectError struct {
	File, Option, Msg string
}

func (e *SelectError) Error() string {
	if e.Option == "" {
		return e.Msg
	}
	return e.Option + ": " + e.Msg
}

// Is reports whether target is ErrSelect.
func (e *SelectError) Is(target error) bool { return target == ErrSelect }

// selItem is one item of a column list: a header name, or the 1-based
// range lo..hi (lo == hi for a single number).
type selItem struct {
	name   string
	lo, hi int
}

// parseList parses a column list: comma-separated header names, 1-based
// numbers and ranges a-b. An item of digits (or digits-digits) is a number
// (a range), anything else a name.
func parseList(option, s string) ([]selItem, error) {
	var items []selItem
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if k, err := strconv.Atoi(p); err == nil && isDigits(p) {
			items = append(items, selItem{lo: k, hi: k})
			continue
		}
		if a, b, ok := strings.Cut(p, "-"); ok && isDigits(a) && isDigits(b) {
			lo, _ := strconv.Atoi(a)
			hi, _ := strconv.Atoi(b)
			if lo > hi {
				return nil, &SelectError{Option: option, Msg: fmt.Sprintf("range %q runs backwards (write %d-%d)", p, hi, lo)}
			}
			items = append(items, selItem{lo: lo, hi: hi})
			continue
		}
		items = append(items, selItem{name: p})
	}
	if len(items) == 0 {
		return nil, &SelectError{Option: option, Msg: "empty column list"}
	}
	return items, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// hasNames reports whether a list holds a header name.
func hasNames(items []selItem) bool {
	for _, it := range items {
		if it.name != "" {
			return true
		}
	}
	return false
}

// selection says which columns of a file of width columns are data: the
// 0-based file columns in the order of the data, given the label column
// and the column of row names (-1 for none) and the header (nil without
// one). what names the columns in messages ("column" or "feature").
//
// With opt.Names and a header, the data columns are those names, in that
// order (a fit's columns, matched by name); -cols and -drop, if given,
// must keep every one of them.
func selection(file string, width, label, rowNames int, header []string, opt Options, what string) ([]int, error) {
	if opt.Names == nil || header == nil {
		return listSelection(file, width, label, rowNames, header, opt, what)
	}
	named, err := selectNames(file, label, rowNames, header, opt.Names)
	if err != nil || opt.Cols == "" && opt.Drop == "" {
		return named, err
	}
	sel, err := listSelection(file, width, label, rowNames, header, opt, what)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, j := range named {
		if !slices.Contains(sel, j) {
			out = append(out, strconv.Quote(header[j]))
		}
	}
	if len(out) > 0 {
		option := "-drop"
		if opt.Drop == "" {
			option = "-cols"
		}
		return nil, &SelectError{File: file, Option: option, Msg: fmt.Sprintf("leaves out the %s %s, which the fit uses", nouns(len(out), "column"), strings.Join(out, ", "))}
	}
	return named, nil
}

// listSelection is selection by opt.Cols and opt.Drop alone.
func listSelection(file string, width, label, rowNames int, header []string, opt Options, what string) ([]int, error) {
	keep := make([]bool, width)
	for j := range keep {
		keep[j] = j != label && j != rowNames
	}
	mark := func(option, list string, v bool) error {
		items, err := parseList(option, list)
		if err != nil {
			return err
		}
		set := make([]bool, width)
		var unknown, outside, twice []string
		for _, it := range items {
			if it.name != "" {
				j := indexOf(header, it.name)
				if j < 0 {
					unknown = append(unknown, strconv.Quote(it.name))
					continue
				}
				if indexOf(header[j+1:], it.name) >= 0 {
					twice = append(twice, strconv.Quote(it.name))
					continue
				}
				if j == label && v { // dropping the label column is a no-op
					return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("%q is the label column (-label-col), not a data column", it.name)}
				}
				set[j] = true
				continue
			}
			if it.lo < 1 || it.hi > width {
				if it.lo == it.hi {
					outside = append(outside, strconv.Itoa(it.lo))
				} else {
					outside = append(outside, fmt.Sprintf("%d-%d", it.lo, it.hi))
				}
				continue
			}
			for k := it.lo; k <= it.hi; k++ {
				if k-1 == rowNames {
					if it.lo == it.hi && v { // dropping the row names is a no-op
						return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("%s %d holds the row names (an empty header name and text, or a header one name short), not data", what, k)}
					}
					continue
				}
				if k-1 == label {
					if it.lo == it.hi && v {
						return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("%s %d is the label column (-label-col), not a data column", what, k)}
					}
					continue
				}
				set[k-1] = true
			}
		}
		switch {
		case len(twice) > 0:
			return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("the header of %s names more than one column %s: give %s by number", file, strings.Join(twice, ", "), map[bool]string{true: "it", false: "them"}[len(twice) == 1])}
		case len(unknown) > 0:
			return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("no %s named %s in the header of %s (%s)", nouns(len(unknown), what), strings.Join(unknown, ", "), file, quoteAll(header))}
		case len(outside) > 0:
			return &SelectError{File: file, Option: option, Msg: fmt.Sprintf("%s %s out of range: %s has %s, numbered from 1", what, strings.Join(outside, ", "), file, plural(width, what))}
		}
		for j := range keep {
			if v {
				keep[j] = keep[j] && set[j]
			} else {
				keep[j] = keep[j] && !set[j]
			}
		}
		return nil
	}
	if opt.Cols != "" {
		if err := mark("-cols", opt.Cols, true); err != nil {
			return nil, err
		}
	}
	if opt.Drop != "" {
		if err := mark("-drop", opt.Drop, false); err != nil {
			return nil, err
		}
	}
	var sel []int
	for j, k := range keep {
		if k {
			sel = append(sel, j)
		}
	}
	if len(sel) == 0 && (opt.Cols != "" || opt.Drop != "") {
		return nil, &SelectError{File: file, Option: "-cols/-drop", Msg: fmt.Sprintf("no data %s left in %s", what, file)}
	}
	return sel, nil
}

// selectNames returns the columns named names in header, in that order.
func selectNames(file string, label, rowNames int, header, names []string) ([]int, error) {
	sel := make([]int, len(names))
	var missing, twice []string
	for k, nm := range names {
		j := indexOf(header, nm)
		if j < 0 || j == label || j == rowNames {
			missing = append(missing, strconv.Quote(nm))
		} else if indexOf(header[j+1:], nm) >= 0 {
			twice = append(twice, strconv.Quote(nm))
		}
		sel[k] = j
	}
	switch {
	case len(missing) > 0:
		return nil, &SelectError{File: file, Msg: fmt.Sprintf("%s lacks the %s %s of the fit (its header: %s)", file, nouns(len(missing), "column"), strings.Join(missing, ", "), quoteAll(header))}
	case len(twice) > 0:
		return nil, &SelectError{File: file, Msg: fmt.Sprintf("the header of %s names more than one column %s, so the fit's %s cannot be matched by name", file, strings.Join(twice, ", "), nouns(len(twice), "column"))}
	}
	return sel, nil
}

func indexOf(header []string, name string) int {
	for j, c := range header {
		if strings.TrimSpace(c) == name {
			return j
		}
	}
	return -1
}

func quoteAll(header []string) string {
	if header == nil {
		return "no header"
	}
	q := make([]string, len(header))
	for j, c := range header {
		q[j] = strconv.Quote(strings.TrimSpace(c))
	}
	return strings.Join(q, ", ")
}

// nouns returns noun, in the plural unless n is 1.
func nouns(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
