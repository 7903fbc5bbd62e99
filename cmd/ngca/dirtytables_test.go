package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAuditShuffledIndex: pandas' index of a sampled or shuffled frame
// (df.sample(...).to_csv()), distinct whole numbers from 0 in no order
// under an empty header name or an index's name, is left out as an
// index; the same numbers under a measurement's name, without a header
// or below 0 are not.
func TestAuditShuffledIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 45))
	n := 200
	shuffled := make([]float64, n)
	for i := range shuffled {
		shuffled[i] = float64(i)
	}
	rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	// df.sample(200) of a frame of 600 rows: 200 distinct numbers of 0…599.
	sampled := rng.Perm(600)[:n]
	sample := make([]float64, n)
	for i, k := range sampled {
		sample[i] = float64(k)
	}
	negative := make([]float64, n)
	for i, v := range sample {
		negative[i] = v - 300
	}
	for _, tc := range []struct {
		desc    string
		names   []string
		cols    [][]float64
		leftOut []leftOutColumn
		stderr  []string
	}{
		{"df.sample(frac=1)", []string{"", "a", "b"}, [][]float64{shuffled, normals(rng, n, 1), uniforms(rng, n)},
			[]leftOutColumn{{Number: 1, Reason: "index"}},
			[]string{"note: left out column 1 of t.csv: an index that numbers the rows (distinct whole numbers from 0 to 199 in no order, as pandas' to_csv writes the index of a sampled or shuffled frame, with an empty header name), not a measurement; list it in -cols to fit it"}},
		{"df.sample(n) of a larger frame", []string{"", "a", "b"}, [][]float64{sample, normals(rng, n, 1), uniforms(rng, n)},
			[]leftOutColumn{{Number: 1, Reason: "index"}}, []string{"in no order, as pandas' to_csv writes the index of a sampled or shuffled frame"}},
		{"read back by pandas", []string{"Unnamed: 0", "a", "b"}, [][]float64{sample, normals(rng, n, 1), uniforms(rng, n)},
			[]leftOutColumn{{Column: "Unnamed: 0", Number: 1, Reason: "index"}}, []string{`in no order, as pandas' to_csv writes the index of a sampled or shuffled frame, named "Unnamed: 0"`}},
		{"no header", nil, [][]float64{sample, normals(rng, n, 1), uniforms(rng, n)}, nil,
			[]string{"warning: column 1 of t.csv holds a different whole number in every row, as an id does; if it is one, -drop 1 leaves it out"}},
		{"below 0", []string{"", "a", "b"}, [][]float64{negative, normals(rng, n, 1), uniforms(rng, n)}, nil,
			[]string{"warning: column 1 of t.csv holds a different whole number in every row"}},
		{"a measurement's name", []string{"count", "a", "b"}, [][]float64{sample, normals(rng, n, 1), uniforms(rng, n)}, nil,
			[]string{`warning: column 1 ("count") of t.csv holds a different whole number in every row`}},
	} {
		tab, res, stderr, err := auditColumns(t, tc.names, tc.cols, auditFlags{}, false)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if !slices.Equal(res.leftOut, tc.leftOut) {
			t.Errorf("%s: left out %+v, want %+v", tc.desc, res.leftOut, tc.leftOut)
		}
		if _, d := tab.X.Dims(); d != 3-len(tc.leftOut) {
			t.Errorf("%s: %d columns left", tc.desc, d)
		}
		for _, w := range tc.stderr {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr\n%s\nlacks %s", tc.desc, stderr, w)
			}
		}
	}
	// -cols fits it.
	_, res, _, err := auditColumns(t, []string{"", "a", "b"}, [][]float64{shuffled, normals(rng, n, 1), uniforms(rng, n)}, auditFlags{listed: true}, false)
	if err != nil || res.leftOut != nil {
		t.Errorf("-cols: %v, left out %v", err, res.leftOut)
	}
}

// withTextColumn returns the lines of the CSV file path with a first
// column named name whose cell in data row i (from 0) is cell(i).
func withTextColumn(t *testing.T, path, name string, cell func(i int) string) string {
	t.Helper()
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(readText(t, path)), "\n") {
		c := name
		if i > 0 {
			c = cell(i - 1)
		}
		b.WriteString(c + "," + line + "\n")
	}
	return b.String()
}

// TestTextIDColumns: a column of text with a different value in every row
// (an id, a name) is left out with a note and listed in the fit's JSON;
// fit, transform and plot read the file alike. A column of text that
// repeats a value (a category) is the error it always was.
func TestTextIDColumns(t *testing.T) {
	dir := t.TempDir()
	data := dataFiles(t, dir)["csv"] // x1,x2,class,x3,x4,x5
	ids := writeFile(t, dir, "ids.csv", withTextColumn(t, data, "patient", func(i int) string { return fmt.Sprintf("P%04d", i+1) }))

	plain, _ := fitJSONOf(t, "", "-label-col", "class", data)
	j, r := fitJSONOf(t, "", "-label-col", "class", ids)
	if fmt.Sprint(j["basis"]) != fmt.Sprint(plain["basis"]) || fmt.Sprint(j["left_out"]) != "[map[column:patient number:1 reason:id]]" ||
		fmt.Sprint(j["column_numbers"]) != "[2 3 5 6 7]" {
		t.Errorf("left out %v, columns %v; basis %v, want %v", j["left_out"], j["column_numbers"], j["basis"], plain["basis"])
	}
	want := `note: left out column 1 ("patient") of ` + ids + `: text with a different value in every row ("P0001" in the first), an id or a name rather than a measurement`
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr\n%s\nlacks\n%s", r.stderr, want)
	}

	// transform projects the same file with the fit, as it projects the
	// file without the id, and copies the id with -keep.
	js := writeFile(t, dir, "fit.json", r.stdout)
	jsPlain := writeFile(t, dir, "plain.json", ngcaRun(t, "", "fit", "-dim", "2", "-json", "-label-col", "class", data).mustSucceed(t).stdout)
	got := ngcaRun(t, "", "transform", "-basis", js, ids).mustSucceed(t).stdout
	if wantOut := ngcaRun(t, "", "transform", "-basis", jsPlain, data).mustSucceed(t).stdout; got != wantOut || strings.Count(got, "\n") != 401 {
		t.Errorf("transform of the file with an id: %d lines, differs from that of the file without", strings.Count(got, "\n"))
	}
	kept := ngcaRun(t, "", "transform", "-basis", js, "-keep", "patient", ids).mustSucceed(t).stdout
	if !strings.HasPrefix(kept, "patient,c1,c2\nP0001,") {
		t.Errorf("transform -keep patient:\n%.80s", kept)
	}
	// A CSV basis names its columns: the same.
	csvBasis := writeFile(t, dir, "basis.csv", ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", ids).mustSucceed(t).stdout)
	if got := ngcaRun(t, "", "transform", "-basis", csvBasis, "-center", "none", ids); got.code != 0 || strings.Count(got.stdout, "\n") != 401 {
		t.Errorf("transform with the CSV basis: exit %d, %s", got.code, got.stderr)
	}
	// plot fits as fit does, and projects on the fit (whose columns leave
	// out the id).
	for _, args := range [][]string{
		{"plot", "-label-col", "class", "-o", filepath.Join(dir, "p.png"), ids},
		{"plot", "-basis", js, "-o", filepath.Join(dir, "q.png"), ids},
	} {
		r := ngcaRun(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stderr, "wrote ") || args[1] != "-basis" && !strings.Contains(r.stderr, `left out column 1 ("patient")`) {
			t.Errorf("ngca %q: exit %d, stderr\n%s", args, r.code, r.stderr)
		}
	}

	// Without a header, by the column's number.
	headerless := writeFile(t, dir, "headerless.csv", strings.SplitN(withTextColumn(t, data, "", func(i int) string { return fmt.Sprintf("id-%d", i) }), "\n", 2)[1])
	hj, hr := fitJSONOf(t, "", "-label-col", "4", headerless)
	if fmt.Sprint(hj["left_out"]) != "[map[number:1 reason:id]]" || !strings.Contains(hr.stderr, `left out column 1 of `+headerless+`: text with a different value in every row ("id-0" in the first)`) {
		t.Errorf("without a header: left out %v, stderr\n%s", hj["left_out"], hr.stderr)
	}
	hjs := writeFile(t, dir, "headerless.json", hr.stdout)
	if got := ngcaRun(t, "", "transform", "-basis", hjs, headerless); got.code != 0 || strings.Count(got.stdout, "\n") != 401 {
		t.Errorf("transform without a header: exit %d, %s", got.code, got.stderr)
	}

	// A category, a repeated id, -cols listing the id: text in the data.
	groups := writeFile(t, dir, "groups.csv", withTextColumn(t, data, "site", func(i int) string { return []string{"north", "south"}[i%2] }))
	twice := writeFile(t, dir, "twice.csv", withTextColumn(t, data, "patient", func(i int) string { return fmt.Sprintf("P%04d", i/2) }))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-label-col", "class", groups}, groups + `:2: column 1 ("site"): "north" is not a number (if the column is not data, leave it out with -drop site, or name it with -label-col site if it holds labels)`},
		{[]string{"-label-col", "class", twice}, twice + `:2: column 1 ("patient"): "P0000" is not a number (if the column is not data`},
		{[]string{"-cols", "patient,x1,x2,x3", ids}, ids + `:2: column 1 ("patient"): "P0001" is not a number`},
	} {
		args := append([]string{"fit", "-dim", "2"}, tc.args...)
		if r := ngcaRun(t, "", args...); r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ngca %q: exit %d, stderr\n%s\nwant\n%s", args, r.code, r.stderr, tc.want)
		}
	}
	// -cols without the id fits the columns listed.
	if r := ngcaRun(t, "", "fit", "-dim", "2", "-cols", "x1,x2,x3", ids); r.code != 0 || strings.Contains(r.stderr, "patient") {
		t.Errorf("-cols x1,x2,x3: exit %d, stderr\n%s", r.code, r.stderr)
	}
}

// TestSemicolonFit: a semicolon-separated file with decimal commas (a
// spreadsheet's CSV export where the decimal mark is a comma) fits as the
// same table in CSV does, detected or with -format semicolon, and
// transform projects it alike.
func TestSemicolonFit(t *testing.T) {
	dir := t.TempDir()
	data := dataFiles(t, dir)["csv"]
	text := readText(t, data)
	semi := strings.NewReplacer(",", ";", ".", ",").Replace(text)
	if !strings.Contains(semi, ";") || !strings.Contains(semi, ",") || strings.Contains(semi, ".") {
		t.Fatalf("the table in semicolons:\n%.200s", semi)
	}
	path := writeFile(t, dir, "semi.csv", semi)
	plain, _ := fitJSONOf(t, "", "-label-col", "class", data)
	for _, args := range [][]string{
		{"-label-col", "class", path},
		{"-label-col", "class", "-format", "semicolon", path},
	} {
		j, r := fitJSONOf(t, "", args...)
		if fmt.Sprint(j["basis"]) != fmt.Sprint(plain["basis"]) || fmt.Sprint(j["mean"]) != fmt.Sprint(plain["mean"]) || j["format"] != "semicolon" {
			t.Errorf("fit %q: format %v, basis %v, want %v\n%s", args, j["format"], j["basis"], plain["basis"], r.stderr)
		}
	}
	js := writeFile(t, dir, "fit.json", ngcaRun(t, "", "fit", "-dim", "2", "-json", "-label-col", "class", data).mustSucceed(t).stdout)
	got := ngcaRun(t, "", "transform", "-basis", js, path).mustSucceed(t).stdout
	if want := ngcaRun(t, "", "transform", "-basis", js, data).mustSucceed(t).stdout; got != want {
		t.Errorf("transform of the semicolon-separated file differs from that of the CSV")
	}
	// A thousands separator is an error that names its cell.
	lines := strings.SplitN(semi, "\n", 3)
	f := strings.Split(lines[1], ";")
	f[3] = "1.234,5"
	bad := writeFile(t, dir, "bad.csv", lines[0]+"\n"+strings.Join(f, ";")+"\n"+lines[2])
	want := bad + `:2: column 4 ("x3"): "1.234,5" has thousands separators`
	if r := ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", bad); r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("a thousands separator: exit %d, stderr\n%s\nwant %s", r.code, r.stderr, want)
	}
}
