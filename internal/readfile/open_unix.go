//go:build unix

package readfile

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK: opening a named
// pipe then returns at once instead of waiting for a writer. The flag
// changes nothing for a regular file.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
