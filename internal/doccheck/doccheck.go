// Package doccheck finds names in doc comments that name nothing, so that
// a test can keep the documentation of a package true to its code. It
// checks only names that are unambiguously Go:
//
//   - X.Y, where X is a type declared in the package: Y must be a field
//     or a method of X, or of a type of the package that X embeds;
//   - p.Y and p.X.Y, where p is the name of the package itself or of a
//     package of the same module that the package imports: Y must be
//     declared there (and be a field or method of the type X);
//   - a word followed at once by "(", with upper- and lower-case letters
//     in it, not after a dot: a function, type or method of the package,
//     or a declaration of an imported package of the module. Names with
//     an underscore and the names of mathematics in mathNames are
//     notation, not Go.
//
// Anything else, such as mat.Dense or a file name like basis.csv, is
// left alone, and so are code blocks (lines indented with a tab), whose
// variables may take a type's name. In a package that declares a type
// Thing with a field Size and a function New:
//
//	Thing.Size, New(3), fixture.New     names that exist
//	Thing.Weight, Old(2), fixture.Old   problems: nothing of that name
//	mat.Dense, data.csv, Cov(x), O(n)   left alone
//
// Comments are the doc comments of the package's files (package,
// declarations, fields, methods and specs) and the line comments of
// fields and specs, test files of the package included.
package doccheck

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Problem is a name in a doc comment that names nothing.
type Problem struct {
	// Pos is the position of the comment that holds the name.
	Pos token.Position
	// Name is the name as the comment writes it.
	Name string
	// Why says what is missing.
	Why string
}

// String formats the problem as "file:line: name: why".
func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.Pos.Filename, p.Pos.Line, p.Name, p.Why)
}

// T is the part of testing.TB that Test uses.
type T interface {
	Helper()
	Fatal(args ...any)
	Errorf(format string, args ...any)
}

// Test reports, through t, every name in the doc comments of the package
// in dir that names nothing (Check), and fails t if the package cannot be
// read. Each package's TestDocComments calls it with ".".
func Test(t T, dir string) {
	t.Helper()
	problems, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%v", p)
	}
}

// Check returns the names in the doc comments of the package in dir that
// name nothing, in the order of the files and lines. The module that
// holds dir is found by its go.mod, for the packages it imports.
func Check(dir string) ([]Problem, error) {
	root, module, err := findModule(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	files, err := parseDir(fset, dir, true)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("doccheck: no Go files in %s", dir)
	}
	self := collect(files)
	imported := map[string]*pkgInfo{}
	for _, f := range files {
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			rel, ok := strings.CutPrefix(path, module+"/")
			if !ok {
				continue
			}
			ifiles, err := parseDir(token.NewFileSet(), filepath.Join(root, filepath.FromSlash(rel)), false)
			if err != nil {
				return nil, err
			}
			info := collect(ifiles)
			name := info.name
			if im.Name != nil {
				name = im.Name.Name
			}
			imported[name] = info
		}
	}
	c := checker{fset: fset, self: self, imported: imported}
	for _, f := range files {
		for _, cg := range docComments(f) {
			c.comment(cg)
		}
	}
	sort.SliceStable(c.problems, func(i, j int) bool {
		a, b := c.problems[i].Pos, c.problems[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return c.problems, nil
}

// findModule returns the folder of the go.mod above dir and its module
// path.
func findModule(dir string) (root, module string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for line := range strings.SplitSeq(string(data), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return d, strings.Trim(strings.TrimSpace(m), `"`), nil
				}
			}
			return "", "", fmt.Errorf("doccheck: %s has no module line", filepath.Join(d, "go.mod"))
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", "", err
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("doccheck: no go.mod above %s", dir)
		}
	}
}

// parseDir parses the Go files of the package in dir, with comments; its
// test files too with tests, but not those of an external test package
// (package p_test).
func parseDir(fset *token.FileSet, dir string, tests bool) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if !tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		files = append(files, f)
	}
	return files, nil
}

// pkgInfo holds the names a package declares.
type pkgInfo struct {
	name  string
	decls map[string]bool // package-level: funcs, types, vars, consts
	types map[string]*typeInfo
}

// typeInfo holds the members of a type declared in a package.
type typeInfo struct {
	members map[string]bool // fields and methods
	embeds  []string        // types of the package it embeds (or is defined as)
	open    bool            // it embeds a type of another package: any member may exist
}

func collect(files []*ast.File) *pkgInfo {
	p := &pkgInfo{decls: map[string]bool{}, types: map[string]*typeInfo{}}
	typ := func(name string) *typeInfo {
		t := p.types[name]
		if t == nil {
			t = &typeInfo{members: map[string]bool{}}
			p.types[name] = t
		}
		return t
	}
	for _, f := range files {
		p.name = f.Name.Name
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.decls[d.Name.Name] = true
					continue
				}
				if r := receiverType(d.Recv.List[0].Type); r != "" {
					typ(r).members[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						p.decls[s.Name.Name] = true
						t := typ(s.Name.Name)
						addMembers(t, s.Type)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.decls[n.Name] = true
						}
					}
				}
			}
		}
	}
	return p
}

// addMembers adds the fields, interface methods and embedded types of the
// type expression e to t.
func addMembers(t *typeInfo, e ast.Expr) {
	var fields *ast.FieldList
	switch e := e.(type) {
	case *ast.StructType:
		fields = e.Fields
	case *ast.InterfaceType:
		fields = e.Methods
	case *ast.Ident:
		t.embeds = append(t.embeds, e.Name) // type T U: U's fields
		return
	case *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ParenExpr:
		if n := receiverType(e); n != "" {
			t.embeds = append(t.embeds, n)
		} else {
			t.open = true
		}
		return
	case *ast.SelectorExpr:
		t.open = true
		return
	default:
		return // func, map, slice, chan, array types: methods only
	}
	for _, f := range fields.List {
		if len(f.Names) > 0 {
			for _, n := range f.Names {
				t.members[n.Name] = true
			}
			continue
		}
		// An embedded type: a member of its own name, and its members.
		switch n := embeddedName(f.Type); {
		case n == "":
		case strings.Contains(n, "."):
			t.members[n[strings.LastIndex(n, ".")+1:]] = true
			t.open = true
		default:
			t.members[n] = true
			t.embeds = append(t.embeds, n)
		}
	}
}

// embeddedName returns the name of an embedded type: "T", or "pkg.T" for
// a type of another package; "" for a type set element of an interface
// (~int | float64).
func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}

// receiverType returns the name of the type of a method's receiver, or of
// a type expression that names a type of the package: T in T, *T, T[P].
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.ParenExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// hasMember reports whether the type name of p has the field or method m,
// its own or of a type of p it embeds; true for a type that embeds one of
// another package.
func (p *pkgInfo) hasMember(name, m string) bool {
	seen := map[string]bool{}
	var has func(string) bool
	has = func(name string) bool {
		t := p.types[name]
		if t == nil || seen[name] {
			return false
		}
		seen[name] = true
		if t.open || t.members[m] {
			return true
		}
		return slices.ContainsFunc(t.embeds, has)
	}
	return has(name)
}

// hasMethodOfAnyType reports whether some type of p has the method or
// field m.
func (p *pkgInfo) hasMethodOfAnyType(m string) bool {
	for name := range p.types {
		if p.types[name].members[m] {
			return true
		}
	}
	return false
}

// docComments returns the doc comments of f: the package's, and those of
// its declarations, specs, fields and methods, with the line comments of
// specs and fields.
func docComments(f *ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	add := func(cgs ...*ast.CommentGroup) {
		for _, cg := range cgs {
			if cg != nil {
				out = append(out, cg)
			}
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			add(n.Doc)
		case *ast.GenDecl:
			add(n.Doc)
		case *ast.TypeSpec:
			add(n.Doc, n.Comment)
		case *ast.ValueSpec:
			add(n.Doc, n.Comment)
		case *ast.Field:
			add(n.Doc, n.Comment)
		}
		return true
	})
	return out
}

var (
	// chainRE finds dotted names, X.Y and X.Y.Z, not inside a path, a
	// flag or a longer dotted name.
	chainRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./\-])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`)
	// callRE finds words followed at once by "(", not after a dot.
	callRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./\-])([A-Za-z_][A-Za-z0-9_]*)\(`)
)

// mathNames are names that doc comments write before "(" as mathematics:
// functions, operators and distributions.
var mathNames = []string{"Cov", "Var", "Corr", "Range", "Span", "Rank", "Ker", "Tr", "Det", "Diag", "Pr",
	"Gamma", "Laplace", "Beta", "Exp", "Uniform", "Normal", "Poisson", "Binomial", "Cauchy"}

// fileExts are the extensions after which X.ext is a file name, not a
// member.
var fileExts = []string{"go", "s", "mod", "sum", "md", "csv", "tsv", "tab", "json", "txt", "png", "svg", "pdf", "gz", "svm", "libsvm", "scale", "py", "R", "sh", "npy", "xlsx", "xls"}

type checker struct {
	fset     *token.FileSet
	self     *pkgInfo
	imported map[string]*pkgInfo
	problems []Problem
}

func (c *checker) report(cg *ast.CommentGroup, name, why string) {
	c.problems = append(c.problems, Problem{Pos: c.fset.Position(cg.Pos()), Name: name, Why: why})
}

// comment checks the names in the comment group cg.
func (c *checker) comment(cg *ast.CommentGroup) {
	for line := range strings.SplitSeq(cg.Text(), "\n") {
		if strings.HasPrefix(line, "\t") {
			continue // code
		}
		for _, m := range chainRE.FindAllStringSubmatch(line, -1) {
			c.chain(cg, m[1])
		}
		for _, m := range callRE.FindAllStringSubmatch(line, -1) {
			c.call(cg, m[1])
		}
	}
}

// chain checks a dotted name.
func (c *checker) chain(cg *ast.CommentGroup, name string) {
	parts := strings.Split(name, ".")
	if slices.Contains(fileExts, parts[len(parts)-1]) {
		return
	}
	x, y := parts[0], parts[1]
	if _, ok := c.self.types[x]; ok {
		if !c.self.hasMember(x, y) {
			c.report(cg, name, fmt.Sprintf("%s has no field or method %s", x, y))
		}
		return
	}
	p := c.imported[x]
	if x == c.self.name {
		p = c.self
	}
	if p == nil {
		return
	}
	if !p.decls[y] {
		c.report(cg, name, fmt.Sprintf("package %s declares no %s", x, y))
		return
	}
	if len(parts) > 2 {
		if _, ok := p.types[y]; ok && !p.hasMember(y, parts[2]) {
			c.report(cg, name, fmt.Sprintf("%s.%s has no field or method %s", x, y, parts[2]))
		}
	}
}

// call checks a word followed by "(".
func (c *checker) call(cg *ast.CommentGroup, name string) {
	upper := strings.IndexFunc(name, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	lower := strings.IndexFunc(name, func(r rune) bool { return r >= 'a' && r <= 'z' })
	if upper < 0 || lower < 0 || strings.Contains(name, "_") || slices.Contains(mathNames, name) {
		return // not a Go-like name: "O(n)", "GPU(s)", "sum(x)", "J_g(z)", "Cov(x)"
	}
	if c.self.decls[name] || c.self.hasMethodOfAnyType(name) {
		return
	}
	for _, p := range c.imported {
		if p.decls[name] || p.hasMethodOfAnyType(name) {
			return
		}
	}
	c.report(cg, name+"(", "no function, type or method of that name")
}
