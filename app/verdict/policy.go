package verdict

import (
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Policy is the effective policy of the repository config file f: the
// file parsed and, when it extends a base, merged with the base as read
// into f.Base by rules (config.Resolve). Nil and why when the file is
// invalid (config.Errors, positioned in the file that holds the problem),
// unreadable, or extends a base that was not read or cannot be: the
// repository's file never stands alone in its base's place.
func Policy(f snapshot.ConfigFile, rules []config.MergeRule) (*config.Resolved, error) {
	switch {
	case f.Unreadable != "":
		return nil, fmt.Errorf("the App cannot read it (%s); grant the App \"Contents: read\" on this repository", f.Unreadable)
	case f.Truncated:
		return nil, errors.New("the file is too large for GitHub to return inline")
	case !f.Found:
		return config.Resolve(config.DefaultFile(ConfigPath), nil, rules) // no file: the defaults apply
	}
	file, err := config.ParseFile(ConfigPath, []byte(f.Text))
	if err != nil {
		return nil, err
	}
	base, err := baseOf(file, f.Base)
	if err != nil {
		return nil, err
	}
	return config.Resolve(file, base, rules)
}

// baseOf parses the base file names, as read into b: nil when it extends
// none; an error when the base was not read for it or cannot be.
func baseOf(file *config.File, b *snapshot.BaseFile) (*config.File, error) {
	ref := file.Config.Extends
	switch {
	case ref == "":
		return nil, nil
	case b == nil || b.Ref != ref:
		return nil, fmt.Errorf("%s extends %s: %w", ConfigPath, ref, config.ErrNoBase)
	case b.Unreadable != "":
		r, _ := config.ParseRef(ref)
		return nil, fmt.Errorf("its base policy %s cannot be read (%s), and the App never judges on the repository's file alone: restore the base on %s/%s's default branch or grant the App \"Contents: read\" on it", ref, b.Unreadable, r.Owner, r.Repo)
	}
	return config.ParseFile(ref, []byte(b.Text))
}
