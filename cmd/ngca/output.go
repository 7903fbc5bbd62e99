package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ngca-go/ngca/internal/atomicfile"
)

// outFile is where a command writes its result: standard output, or a file
// that appears (replacing any old one) only when the command succeeds.
// createOutFile opens a temporary file next to it at once, so that a path
// that cannot be written fails before a long fit rather than after it; an
// error, Ctrl-C or kill before commit leaves an old file as it was.
type outFile struct {
	*bufio.Writer
	path string
	file *atomicfile.File // nil for standard output
}

// createOutFile returns the output for -o path; "" and "-" mean stdout.
func createOutFile(path string, stdout io.Writer) (*outFile, error) {
	if path == "" || path == "-" {
		return &outFile{Writer: bufio.NewWriter(stdout)}, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("-o %s is a directory", path)
	}
	f, err := atomicfile.Create(path, 0o666)
	if err != nil {
		dir := filepath.Dir(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("cannot create %s: directory %s does not exist", path, dir)
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("cannot create %s: permission denied", path)
		}
		return nil, fmt.Errorf("cannot create %s: %v", path, err)
	}
	return &outFile{Writer: bufio.NewWriter(f), path: path, file: f}, nil
}

// commit flushes the output and moves the file into place.
func (o *outFile) commit() error {
	err := o.Flush()
	if o.file == nil {
		return err
	}
	if err != nil {
		o.file.Abort()
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return o.file.Commit()
}

// abort discards a file output; it does nothing after commit.
func (o *outFile) abort() {
	if o.file != nil {
		o.file.Abort()
	}
}
