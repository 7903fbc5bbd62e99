package dataio

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
)

// extensions maps file-name extensions to formats.
var extensions = map[string]Format{
	".csv":    CSV,
	".tsv":    TSV,
	".tab":    TSV,
	".libsvm": LIBSVM,
	".svm":    LIBSVM,
}

// sniffLines is how many non-blank lines Detect looks at.
const sniffLines = 20

// Detect returns the format of a file named name with content data: by the
// extension (.csv; .tsv or .tab; .libsvm or .svm, case-insensitive), or
// else, since LIBSVM files often have none (svmguide1) or another one
// (vehicle.scale), from the content: LIBSVM if one of the first 20
// non-blank, non-comment lines looks like "label index:value ...", TSV if
// the first of them holds a tab, CSV otherwise.
func Detect(name string, data []byte) Format {
	if f, ok := extensions[strings.ToLower(filepath.Ext(name))]; ok {
		return f
	}
	var first string
	seen := 0
	for len(data) > 0 && seen < sniffLines {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		if seen == 0 {
			first = string(line)
		}
		seen++
		if looksLIBSVM(s) {
			return LIBSVM
		}
	}
	if strings.Contains(first, "\t") {
		return TSV
	}
	return CSV
}

// looksLIBSVM reports whether a line reads "label index:value ...": a
// number, then a field of a positive integer, a colon and more, and no
// comma.
func looksLIBSVM(line string) bool {
	if strings.Contains(line, ",") {
		return false
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return false
	}
	if _, err := strconv.ParseFloat(f[0], 64); err != nil {
		return false
	}
	idx, _, ok := strings.Cut(f[1], ":")
	if !ok {
		return false
	}
	j, err := strconv.Atoi(idx)
	return err == nil && j >= 1
}
