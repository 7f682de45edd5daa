//go:build !unix

package readfile

import "os"

// openNonBlocking opens path for reading; outside Unix, opening a path
// does not wait on a named pipe's writer.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
