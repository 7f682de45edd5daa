//go:build unix

package readfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fifo makes a named pipe that nothing ever writes to.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err) // every unix has named pipes
	}
	return p
}

// within runs f and fails the test if it has not returned after d.
func within[T any](t *testing.T, d time.Duration, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("still reading after %v", d)
		panic("unreachable")
	}
}

func TestFileReadsRegularFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yml")
	os.WriteFile(small, []byte("version: 1\n"), 0o644)
	exact := filepath.Join(dir, "exact.yml")
	os.WriteFile(exact, bytes.Repeat([]byte("x"), int(Config.Max())), 0o644)
	link := filepath.Join(dir, "link.yml")
	os.Symlink(small, link)
	for _, tc := range []struct {
		name, path string
		want       int
	}{
		{"small", small, len("version: 1\n")},
		{"at the cap", exact, int(Config.Max())},
		{"symlink to a regular file", link, len("version: 1\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := File(context.Background(), tc.path, Config)
			if err != nil || len(b) != tc.want {
				t.Fatalf("got %d bytes, %v; want %d bytes", len(b), err, tc.want)
			}
		})
	}
}

func TestFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yml")
	os.WriteFile(big, bytes.Repeat([]byte("x"), int(Config.Max())+1), 0o644)
	for _, tc := range []struct {
		name, path string
		want       error
		msg        string
	}{
		{"named pipe never written", fifo(t), ErrNotRegular, "not a regular file (a named pipe)"},
		{"/dev/zero", "/dev/zero", ErrNotRegular, "(a character device)"},
		{"folder", dir, ErrNotRegular, "(a folder)"},
		{"over the cap", big, ErrTooLarge, "1048577 bytes, over the 1 MB limit for a config file"},
		{"missing", filepath.Join(dir, "nope.yml"), fs.ErrNotExist, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := within(t, 5*time.Second, func() error {
				_, err := File(context.Background(), tc.path, Config)
				return err
			})
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v; want %v saying %q", err, tc.want, tc.msg)
			}
		})
	}
}

// TestFileChecksSizeBeforeReading: a file over the cap is refused without
// reading a byte of it.
func TestFileChecksSizeBeforeReading(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	os.WriteFile(big, bytes.Repeat([]byte("x"), int(Config.Max())+1), 0o644)
	var read int64
	counting := reader{open: openRegular, drain: func(ctx context.Context, r io.Reader, size, max int64) ([]byte, error) {
		b, err := drainInterruptible(ctx, r, size, max)
		read += int64(len(b))
		return b, err
	}}
	_, err := counting.file(context.Background(), big, Config)
	if !errors.Is(err, ErrTooLarge) || read != 0 {
		t.Fatalf("err %v after reading %d bytes; want ErrTooLarge before reading", err, read)
	}
}

// TestFileNamedPipeHangsWithoutTheCheck is the negative control of the
// regular-file check: a plain open of a named pipe nobody writes to waits
// for ever.
func TestFileNamedPipeHangsWithoutTheCheck(t *testing.T) {
	p := fifo(t)
	plain := reader{open: func(path string) (*os.File, int64, error) {
		f, err := os.Open(path)
		return f, 0, err
	}, drain: drainInterruptible}
	done := make(chan error, 1)
	go func() {
		_, err := plain.file(context.Background(), p, Config)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a plain open of a named pipe returned (%v); the check would be untested", err)
	case <-time.After(300 * time.Millisecond):
	}
	w, err := os.OpenFile(p, os.O_WRONLY, 0) // release the blocked open
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	<-done
}

// TestFileDevZeroReadWithoutTheCheck is the negative control of the
// regular-file check on /dev/zero: opened plainly, it is read until the cap
// stops it (without the cap, until memory runs out); checked, not a byte
// is read.
func TestFileDevZeroReadWithoutTheCheck(t *testing.T) {
	plainOpen := func(path string) (*os.File, int64, error) {
		f, err := os.Open(path)
		return f, 0, err
	}
	for _, tc := range []struct {
		name     string
		open     func(string) (*os.File, int64, error)
		want     error
		wantRead int64
	}{
		{"checked", openRegular, ErrNotRegular, 0},
		{"plain open", plainOpen, ErrTooLarge, Config.Max() + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var read int64
			rd := reader{open: tc.open, drain: func(ctx context.Context, r io.Reader, size, max int64) ([]byte, error) {
				b, err := drainInterruptible(ctx, r, size, max)
				read += int64(len(b))
				return b, err
			}}
			_, err := rd.file(context.Background(), "/dev/zero", Config)
			if !errors.Is(err, tc.want) || read != tc.wantRead {
				t.Fatalf("err %v after reading %d bytes; want %v after %d", err, read, tc.want, tc.wantRead)
			}
		})
	}
}

func TestInputReadsStandardInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		want  string
		err   error
	}{
		{"text", strings.NewReader("{}"), "{}", nil},
		{"nil is empty", nil, "", nil},
		{"at the cap", bytes.NewReader(make([]byte, Config.Max())), strings.Repeat("\x00", int(Config.Max())), nil},
		{"over the cap", bytes.NewReader(make([]byte, Config.Max()+1)), "", ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Input(context.Background(), tc.stdin, Stdin, Config)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if diff := cmp.Diff(tc.want, string(b)); len(b) < 100 && diff != "" {
				t.Errorf("read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInputStdinDevZeroIsCapped: /dev/zero on standard input is read up to
// the cap, then refused.
func TestInputStdinDevZeroIsCapped(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = within(t, 10*time.Second, func() error {
		_, err := Input(context.Background(), f, Stdin, Config)
		return err
	})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "standard input: too large") {
		t.Fatalf("err = %v, want ErrTooLarge for standard input", err)
	}
}

// TestInputStdinStalledEndsOnCancel: a standard input nobody writes to
// does not keep the command past Ctrl-C (ctx cancelled).
func TestInputStdinStalledEndsOnCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	err = within(t, 5*time.Second, func() error {
		_, err := Input(ctx, r, Stdin, Events)
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestInputStdinStalledHangsWithoutTheWatch is the negative control: a
// drain that does not watch ctx stays blocked after the cancel.
func TestInputStdinStalledHangsWithoutTheWatch(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	plain := reader{open: openRegular, drain: func(_ context.Context, r io.Reader, _, max int64) ([]byte, error) {
		return io.ReadAll(io.LimitReader(r, max+1))
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := plain.input(ctx, r, Stdin, Events)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the unwatched read returned (%v); the watch would be untested", err)
	case <-time.After(300 * time.Millisecond):
	}
	w.Close()
	<-done
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"docs/run":         "docs/run",
		"docs/été run":     "docs/été run",
		"docs/x\nerror: y": `"docs/x\nerror: y"`,
		"a\x1b[31mb":       `"a\x1b[31mb"`,
		`a"b`:              `"a\"b"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestKindCaps(t *testing.T) {
	got := map[string]int64{}
	for _, k := range []Kind{Config, Certificate, Events, Review, Manifest, RunDocument, Secret} {
		got[k.String()] = k.Max()
	}
	want := map[string]int64{"a config file": 1 << 20, "a certificate": 10 << 20, "a gate events file": 50 << 20,
		"an audit review": 1 << 20, "a release manifest": 10 << 20, "a run document": 50 << 20,
		"a key or secret file": 1 << 20}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("caps (-want +got):\n%s", diff)
	}
}

func TestTextReadsTheWholeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.md")
	want := strings.Repeat("### P0-T1 — DONE\n", 10000)
	os.WriteFile(p, []byte(want), 0o644)
	got, err := Text(context.Background(), p, RunDocument)
	if err != nil || got != want {
		t.Fatalf("Text = %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
	if _, err := Text(context.Background(), "/dev/zero", RunDocument); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("Text(/dev/zero) = %v, want ErrNotRegular", err)
	}
}
