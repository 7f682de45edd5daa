//go:build !unix

package gh

import "os"

// fileOwner reports no owner where os.Stat gives none (Windows): a token
// file is then refused as not owned by you (fail closed).
func fileOwner(os.FileInfo) (int, bool) { return 0, false }
