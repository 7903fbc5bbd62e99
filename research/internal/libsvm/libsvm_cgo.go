//go:build cgo

package libsvm

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

// The LIBSVM 3.x ABI, declared here so that building needs no LIBSVM
// header: the library itself is opened at run time.
struct ngca_svm_node { int index; double value; };
struct ngca_svm_problem { int l; double *y; struct ngca_svm_node **x; };
struct ngca_svm_parameter {
	int svm_type; int kernel_type; int degree; double gamma; double coef0;
	double cache_size; double eps; double C;
	int nr_weight; int *weight_label; double *weight;
	double nu; double p; int shrinking; int probability;
};
struct ngca_svm_model; // opaque
enum { NGCA_C_SVC = 0, NGCA_RBF = 2 };

// When the header is installed, check the declarations above against it.
#if defined(__has_include)
#  if __has_include(<libsvm/svm.h>)
#    include <libsvm/svm.h>
#    define NGCA_HAVE_SVM_H 1
#  elif __has_include(<svm.h>)
#    include <svm.h>
#    define NGCA_HAVE_SVM_H 1
#  endif
#endif
#ifdef NGCA_HAVE_SVM_H
#define NGCA_SAME(s, f) _Static_assert(offsetof(struct ngca_##s, f) == offsetof(struct s, f), #s "." #f " differs from LIBSVM's header");
_Static_assert(LIBSVM_VERSION >= 300 && LIBSVM_VERSION < 400, "LIBSVM's header is not version 3.x");
_Static_assert((int)C_SVC == (int)NGCA_C_SVC && (int)RBF == (int)NGCA_RBF, "LIBSVM's svm_type or kernel_type constants differ");
_Static_assert(sizeof(struct ngca_svm_node) == sizeof(struct svm_node), "svm_node size differs from LIBSVM's header");
_Static_assert(sizeof(struct ngca_svm_problem) == sizeof(struct svm_problem), "svm_problem size differs from LIBSVM's header");
_Static_assert(sizeof(struct ngca_svm_parameter) == sizeof(struct svm_parameter), "svm_parameter size differs from LIBSVM's header");
NGCA_SAME(svm_node, index) NGCA_SAME(svm_node, value)
NGCA_SAME(svm_problem, l) NGCA_SAME(svm_problem, y) NGCA_SAME(svm_problem, x)
NGCA_SAME(svm_parameter, svm_type) NGCA_SAME(svm_parameter, kernel_type) NGCA_SAME(svm_parameter, degree)
NGCA_SAME(svm_parameter, gamma) NGCA_SAME(svm_parameter, coef0) NGCA_SAME(svm_parameter, cache_size)
NGCA_SAME(svm_parameter, eps) NGCA_SAME(svm_parameter, C) NGCA_SAME(svm_parameter, nr_weight)
NGCA_SAME(svm_parameter, weight_label) NGCA_SAME(svm_parameter, weight) NGCA_SAME(svm_parameter, nu)
NGCA_SAME(svm_parameter, p) NGCA_SAME(svm_parameter, shrinking) NGCA_SAME(svm_parameter, probability)
static int ngca_svm_header_checked(void) { return 1; }
#else
static int ngca_svm_header_checked(void) { return 0; }
#endif

// The functions resolved from the library; written once by ngca_svm_load
// (called under a sync.Once), read-only afterwards.
static struct {
	struct ngca_svm_model *(*train)(const struct ngca_svm_problem *, const struct ngca_svm_parameter *);
	double (*predict)(const struct ngca_svm_model *, const struct ngca_svm_node *);
	const char *(*check)(const struct ngca_svm_problem *, const struct ngca_svm_parameter *);
	void (*destroy)(struct ngca_svm_model **);
	int (*nr_sv)(const struct ngca_svm_model *);
	void (*set_print)(void (*)(const char *));
	int version;
	char name[64];
} ngca_svm;

static char ngca_svm_err[1024];

static void ngca_svm_silent(const char *s) { (void)s; }

// ngca_svm_load opens LIBSVM and resolves its functions. It returns NULL on
// success, or else a message.
static const char *ngca_svm_load(void) {
	static const char *names[] = {"libsvm.so.3", "libsvm.so"};
	void *h = NULL;
	const char *name = NULL;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && h == NULL; i++) {
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h != NULL) {
			name = names[i];
		} else if (i == 0) {
			const char *e = dlerror();
			snprintf(ngca_svm_err, sizeof ngca_svm_err, "%s", e ? e : "cannot open libsvm.so.3");
		}
	}
	if (h == NULL) {
		return ngca_svm_err;
	}
	struct { const char *sym; void **dst; } syms[] = {
		{"svm_train", (void **)&ngca_svm.train},
		{"svm_predict", (void **)&ngca_svm.predict},
		{"svm_check_parameter", (void **)&ngca_svm.check},
		{"svm_free_and_destroy_model", (void **)&ngca_svm.destroy},
		{"svm_get_nr_sv", (void **)&ngca_svm.nr_sv},
		{"svm_set_print_string_function", (void **)&ngca_svm.set_print},
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		*syms[i].dst = dlsym(h, syms[i].sym);
		if (*syms[i].dst == NULL) {
			snprintf(ngca_svm_err, sizeof ngca_svm_err, "%s has no symbol %s", name, syms[i].sym);
			dlclose(h);
			return ngca_svm_err;
		}
	}
	const int *version = (const int *)dlsym(h, "libsvm_version");
	if (version == NULL) {
		snprintf(ngca_svm_err, sizeof ngca_svm_err, "%s has no symbol libsvm_version (LIBSVM before 2.9?)", name);
		dlclose(h);
		return ngca_svm_err;
	}
	if (*version < 300 || *version >= 400) {
		snprintf(ngca_svm_err, sizeof ngca_svm_err, "%s is LIBSVM version %d; this binding needs 3.x (300 to 399)", name, *version);
		dlclose(h);
		return ngca_svm_err;
	}
	ngca_svm.version = *version;
	snprintf(ngca_svm.name, sizeof ngca_svm.name, "%s", name);
	// LIBSVM prints on stdout while it trains unless given a printer.
	ngca_svm.set_print(ngca_svm_silent);
	return NULL;
}

// Trampolines: cgo cannot call through function pointers.
static const char *ngca_svm_check(const struct ngca_svm_problem *p, const struct ngca_svm_parameter *q) {
	return ngca_svm.check(p, q);
}
static struct ngca_svm_model *ngca_svm_train(const struct ngca_svm_problem *p, const struct ngca_svm_parameter *q) {
	return ngca_svm.train(p, q);
}
static double ngca_svm_predict(const struct ngca_svm_model *m, const struct ngca_svm_node *x) {
	return ngca_svm.predict(m, x);
}
static int ngca_svm_nr_sv(const struct ngca_svm_model *m) { return ngca_svm.nr_sv(m); }
static void ngca_svm_destroy(struct ngca_svm_model *m) { ngca_svm.destroy(&m); }
static int ngca_svm_version(void) { return ngca_svm.version; }
static const char *ngca_svm_name(void) { return ngca_svm.name; }
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

var lib struct {
	once sync.Once
	err  error
}

// Available loads LIBSVM if that has not been tried yet and returns nil if
// it can be used, or else an error wrapping ErrUnavailable that says why.
func Available() error {
	lib.once.Do(func() {
		if msg := C.ngca_svm_load(); msg != nil {
			lib.err = fmt.Errorf("%w (%s): %s", ErrUnavailable, C.GoString(msg), InstallHint)
		}
	})
	return lib.err
}

// Version returns LIBSVM's version number (e.g. 324 for 3.24) and the
// name it was loaded under, or an error if it is not available.
func Version() (int, string, error) {
	if err := Available(); err != nil {
		return 0, "", err
	}
	return int(C.ngca_svm_version()), C.GoString(C.ngca_svm_name()), nil
}

// headerChecked reports whether the build checked this package's
// declarations of LIBSVM's structures against LIBSVM's header.
func headerChecked() bool { return C.ngca_svm_header_checked() != 0 }

// Model is a trained classifier. It holds C memory until Close.
type Model struct {
	res     *resources
	cleanup runtime.Cleanup
	d       int
}

// resources is the C memory of a model: the model itself and the training
// nodes its support vectors point into.
type resources struct {
	model *C.struct_ngca_svm_model
	nodes unsafe.Pointer
}

func (r *resources) free() {
	if r.model != nil {
		C.ngca_svm_destroy(r.model)
		r.model = nil
	}
	if r.nodes != nil {
		C.free(r.nodes)
		r.nodes = nil
	}
}

// Train trains a C-SVC with the RBF kernel on the n×d data x (rows are
// observations) with integer class labels y (two or more classes), as
// svm-train would with the same parameters.
func Train(x mat.Matrix, y []float64, p Params) (*Model, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	n, d, err := checkData(x, y)
	if err != nil {
		return nil, err
	}
	if p, err = p.withDefaults(d); err != nil {
		return nil, err
	}

	// Every row is d nodes and the terminator (index −1), in one block
	// that lives as long as the model: LIBSVM's support vectors point into it.
	nodes := C.calloc(C.size_t(n*(d+1)), C.sizeof_struct_ngca_svm_node)
	rows := C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0))))
	labels := C.calloc(C.size_t(n), C.sizeof_double)
	prob := (*C.struct_ngca_svm_problem)(C.calloc(1, C.sizeof_struct_ngca_svm_problem))
	param := (*C.struct_ngca_svm_parameter)(C.calloc(1, C.sizeof_struct_ngca_svm_parameter))
	defer func() {
		C.free(rows)
		C.free(labels)
		C.free(unsafe.Pointer(prob))
		C.free(unsafe.Pointer(param))
	}()
	if nodes == nil || rows == nil || labels == nil || prob == nil || param == nil {
		C.free(nodes)
		return nil, errors.New("libsvm: out of memory")
	}
	ns := unsafe.Slice((*C.struct_ngca_svm_node)(nodes), n*(d+1))
	rs := unsafe.Slice((**C.struct_ngca_svm_node)(rows), n)
	ys := unsafe.Slice((*C.double)(labels), n)
	for i := 0; i < n; i++ {
		row := ns[i*(d+1) : (i+1)*(d+1)]
		fillRow(row, x, i)
		rs[i] = &row[0]
		ys[i] = C.double(y[i])
	}
	prob.l = C.int(n)
	prob.y = (*C.double)(labels)
	prob.x = (**C.struct_ngca_svm_node)(rows)
	*param = C.struct_ngca_svm_parameter{
		svm_type:    C.NGCA_C_SVC,
		kernel_type: C.NGCA_RBF,
		degree:      3, // svm-train's defaults for the unused fields
		gamma:       C.double(p.Gamma),
		coef0:       0,
		cache_size:  C.double(p.CacheSize),
		eps:         C.double(p.Eps),
		C:           C.double(p.C),
		nu:          0.5,
		p:           0.1,
		shrinking:   1,
	}
	if p.NoShrinking {
		param.shrinking = 0
	}
	if msg := C.ngca_svm_check(prob, param); msg != nil {
		C.free(nodes)
		return nil, fmt.Errorf("libsvm: %s", C.GoString(msg))
	}
	model := C.ngca_svm_train(prob, param)
	if model == nil {
		C.free(nodes)
		return nil, errors.New("libsvm: svm_train failed")
	}
	res := &resources{model: model, nodes: nodes}
	m := &Model{res: res, d: d}
	// A model that is never closed is freed when it becomes unreachable.
	m.cleanup = runtime.AddCleanup(m, func(r *resources) { r.free() }, res)
	return m, nil
}

// fillRow writes row i of x into LIBSVM nodes, ending with index −1.
func fillRow(row []C.struct_ngca_svm_node, x mat.Matrix, i int) {
	d := len(row) - 1
	for j := 0; j < d; j++ {
		row[j].index = C.int(j + 1)
		row[j].value = C.double(x.At(i, j))
	}
	row[d].index = -1
	row[d].value = 0
}

// Predict returns the predicted class of every row of x, which must have
// as many columns as the training data. A model may predict from several
// goroutines at once, but not while it is being closed.
func (m *Model) Predict(x mat.Matrix) ([]float64, error) {
	if m.res == nil || m.res.model == nil {
		return nil, errors.New("libsvm: Predict on a closed model")
	}
	n, d := x.Dims()
	if d != m.d {
		return nil, fmt.Errorf("libsvm: %d columns, the model was trained on %d", d, m.d)
	}
	if err := checkFinite(x); err != nil {
		return nil, err
	}
	buf := C.calloc(C.size_t(d+1), C.sizeof_struct_ngca_svm_node)
	if buf == nil {
		return nil, errors.New("libsvm: out of memory")
	}
	defer C.free(buf)
	row := unsafe.Slice((*C.struct_ngca_svm_node)(buf), d+1)
	out := make([]float64, n)
	for i := range out {
		fillRow(row, x, i)
		out[i] = float64(C.ngca_svm_predict(m.res.model, &row[0]))
	}
	runtime.KeepAlive(m)
	return out, nil
}

// NumSV returns the number of support vectors.
func (m *Model) NumSV() int {
	if m.res == nil || m.res.model == nil {
		return 0
	}
	k := int(C.ngca_svm_nr_sv(m.res.model))
	runtime.KeepAlive(m)
	return k
}

// Close frees the model's C memory. Closing twice is harmless; the model
// cannot be used afterwards.
func (m *Model) Close() {
	if m.res == nil {
		return
	}
	m.cleanup.Stop()
	m.res.free()
	m.res = nil
}
