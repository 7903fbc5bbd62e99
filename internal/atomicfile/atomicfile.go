// Package atomicfile writes files that appear only when complete: the
// content goes to a temporary file in the destination's directory, which is
// synced, closed and renamed over the destination at the end. An error, a
// Ctrl-C or a kill before then leaves any previous file at the destination
// unchanged (at worst a temporary file named .<name>.<random>.tmp remains
// after a kill; errors and Abort remove it).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// File is a file being written. It is an io.Writer; Commit puts it in
// place, Abort discards it. Writes are not buffered.
type File struct {
	tmp  *os.File
	path string // the destination, symbolic links resolved
	done bool   // Commit or Abort was called
}

// Create starts writing the file at path. The temporary file is created at
// once (so a directory that cannot be written fails now, not at Commit),
// with permissions perm less the umask, as os.OpenFile would give a new
// file; if path already holds a regular file, its permission bits are kept
// instead. A symbolic link at path is followed: its target is replaced.
func Create(path string, perm fs.FileMode) (*File, error) {
	dest, mode, keep, err := destination(path, perm)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(dest)
	if dir == "" {
		dir = "."
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64()%1e12, 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode.Perm())
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "create", Path: path, Err: unwrapPath(err)}
		}
		af := &File{tmp: f, path: dest}
		if keep { // an existing file's bits, not subject to the umask
			if err := f.Chmod(mode.Perm()); err != nil {
				af.Abort()
				return nil, err
			}
		}
		return af, nil
	}
}

// destination resolves a symbolic link at path and returns the file to
// replace and the permissions the new file gets; keep reports that they
// are those of an existing file.
func destination(path string, perm fs.FileMode) (dest string, mode fs.FileMode, keep bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return path, perm, false, nil // a new file (or a directory that fails later)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return path, perm, false, nil // a dangling link: replace the link
		}
		path = target
		if fi, err = os.Stat(path); err != nil {
			return "", 0, false, err
		}
	}
	switch {
	case fi.IsDir():
		return "", 0, false, &fs.PathError{Op: "create", Path: path, Err: errors.New("is a directory")}
	case fi.Mode().IsRegular():
		return path, fi.Mode().Perm(), true, nil
	}
	return path, perm, false, nil
}

// unwrapPath returns the cause of a *fs.PathError, so that errors name the
// destination rather than the temporary file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Write writes p to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("write %s: %w", f.path, fs.ErrClosed)
	}
	return f.tmp.Write(p)
}

// Name returns the destination path (symbolic links resolved).
func (f *File) Name() string { return f.path }

// Commit syncs and closes the temporary file and renames it to the
// destination, then syncs the directory (where the system allows it). On
// an error the temporary file is removed and the destination left as it
// was. Commit after Commit or Abort returns an error wrapping
// fs.ErrClosed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("commit %s: %w", f.path, fs.ErrClosed)
	}
	f.done = true
	err := f.tmp.Sync()
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.path, unwrapLink(unwrapPath(err)))
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// unwrapLink returns the cause of an *os.LinkError (from Rename).
func unwrapLink(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// syncDir makes a rename in dir durable; it is best effort (some systems
// cannot open or sync a directory, and the file is in place either way).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Abort closes and removes the temporary file, leaving the destination as
// it was. It does nothing after Commit or Abort, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Write creates the file at path with permissions perm (see Create) from
// what write writes, all or nothing: if write returns an error, or the file
// cannot be completed, the destination is left as it was and the error
// returned.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile is os.WriteFile done atomically: data replaces the file at
// path only once all of it is on disk.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
