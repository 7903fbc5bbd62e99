package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// outFile is where a command writes its result: standard output, or a file
// that appears (replacing any old one) only when the command succeeds.
// createOutFile opens a temporary file next to it at once, so that a path
// that cannot be written fails before a long fit rather than after it.
type outFile struct {
	*bufio.Writer
	path string
	tmp  *os.File // nil for standard output
}

// createOutFile returns the output for -o path; "" and "-" mean stdout.
func createOutFile(path string, stdout io.Writer) (*outFile, error) {
	if path == "" || path == "-" {
		return &outFile{Writer: bufio.NewWriter(stdout)}, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("-o %s is a directory", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("cannot create %s: directory %s does not exist", path, dir)
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("cannot create %s: permission denied", path)
		}
		return nil, fmt.Errorf("cannot create %s: %v", path, err)
	}
	return &outFile{Writer: bufio.NewWriter(tmp), path: path, tmp: tmp}, nil
}

// commit flushes the output and moves the file into place.
func (o *outFile) commit() error {
	err := o.Flush()
	if o.tmp == nil {
		return err
	}
	if err == nil {
		err = o.tmp.Chmod(0o644)
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// abort discards a file output; it does nothing after commit.
func (o *outFile) abort() {
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
	}
}
