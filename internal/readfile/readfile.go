// Package readfile is the one reader of the files a user hands aepgate:
// the repository config, certificates, gate events, audit reviews, release
// manifests and run documents. It reads regular files only (or standard
// input when the path is "-"), refuses a file over its kind's size cap
// before reading a byte of it, and gives up as soon as its context is done,
// so a named pipe, /dev/zero or a stalled standard input can neither hang a
// command past Ctrl-C nor exhaust its memory.
package readfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unsafe"
)

// Stdin is the path that means standard input.
const Stdin = "-"

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a folder, a named pipe, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for input over its kind's cap.
var ErrTooLarge = errors.New("too large")

// Error is a refused or failed read: Path (quoted when it must be, see
// Quote) and why.
type Error struct {
	Path string
	Err  error
}

// Error names the path and the reason.
func (e *Error) Error() string { return Quote(e.Path) + ": " + e.Err.Error() }

// Unwrap returns the reason: ErrNotRegular, ErrTooLarge, the context's
// error, or the operating system's (fs.ErrNotExist for a missing file).
func (e *Error) Unwrap() error { return e.Err }

// File reads the regular file at path, at most k.Max() bytes.
func File(ctx context.Context, path string, k Kind) ([]byte, error) {
	return safe().file(ctx, path, k)
}

// Text is File returning a string that shares the read buffer, so a large
// document is held once. The buffer is sized from the opened file, so a
// file that does not grow while it is read is read into one allocation.
func Text(ctx context.Context, path string, k Kind) (string, error) {
	b, err := File(ctx, path, k)
	if err != nil {
		return "", err
	}
	// b is referenced nowhere else and never written again.
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// Input reads path like File, or stdin (at most k.Max() bytes) when path
// is "-". A read from stdin that has not finished when ctx is done is
// abandoned: Input returns the context's error at once.
func Input(ctx context.Context, stdin io.Reader, path string, k Kind) ([]byte, error) {
	return safe().input(ctx, stdin, path, k)
}

// reader is how File and Input open and drain a file. safe() is the only
// one the package uses; the negative-control tests build weakened ones to
// show what each part protects against.
type reader struct {
	// open opens path and returns its size; it refuses what is not a
	// regular file.
	open func(path string) (*os.File, int64, error)
	// drain reads at most max+1 bytes of r, returning early when ctx is
	// done; size is what r is expected to hold (0: unknown).
	drain func(ctx context.Context, r io.Reader, size, max int64) ([]byte, error)
}

func safe() reader { return reader{open: openRegular, drain: drainInterruptible} }

func (rd reader) input(ctx context.Context, stdin io.Reader, path string, k Kind) ([]byte, error) {
	if path != Stdin {
		return rd.file(ctx, path, k)
	}
	if stdin == nil {
		stdin = eofReader{}
	}
	b, err := rd.drain(ctx, stdin, 0, k.Max())
	return capped(b, err, "standard input", k)
}

func (rd reader) file(ctx context.Context, path string, k Kind) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	f, size, err := rd.open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in Error
		}
		return nil, &Error{Path: path, Err: err}
	}
	defer f.Close()
	if size > k.Max() {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: %d bytes, over the %s limit for %s", ErrTooLarge, size, k.limit(), k)}
	}
	b, err := rd.drain(ctx, f, size, k.Max())
	return capped(b, err, path, k)
}

// capped turns a drained read into File's result: an *Error for a failed
// read or one that found more than k allows.
func capped(b []byte, err error, path string, k Kind) ([]byte, error) {
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if int64(len(b)) > k.Max() {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: over the %s limit for %s", ErrTooLarge, k.limit(), k)}
	}
	return b, nil
}

// openRegular opens path without blocking (opening a named pipe that no
// one writes to would wait forever) and refuses anything but a regular
// file, judged on the opened file so nothing can be swapped in between.
func openRegular(path string) (*os.File, int64, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%w (%s); aepgate reads files, or standard input given as -", ErrNotRegular, describe(fi.Mode()))
	}
	return f, fi.Size(), nil
}

// describe names a file type for the refusal message.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// drainInterruptible reads at most max+1 bytes of r in a goroutine and
// returns when it finishes or ctx is done, whichever comes first. A read
// blocked in the kernel (a terminal, a pipe) cannot be cancelled; it is
// left to end with the process.
func drainInterruptible(ctx context.Context, r io.Reader, size, max int64) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := readAll(ctxReader{ctx, r}, min(size, max)+1, max+1)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("interrupted: %w", ctx.Err())
	}
}

// readAll reads r to its end or to limit bytes into a buffer that starts
// at capacity hint (one more than the expected size, so reaching the end
// needs no second buffer) and grows as io.ReadAll's does past it.
func readAll(r io.Reader, hint, limit int64) ([]byte, error) {
	b := make([]byte, 0, max(hint, 512))
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// ctxReader stops reading once ctx is done, between two reads.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
