//go:build unix

package gh

import (
	"os"
	"syscall"
)

// fileOwner is the uid that owns fi's file.
func fileOwner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
