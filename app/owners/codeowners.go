package owners

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/codeowners"
	"github.com/aepgate/aepgate/protocol/config"
)

// Unusable says why a source of people the config names cannot be read:
// CODEOWNERS missing on the default branch or not readable whole, or a
// team whose members GitHub will not list to the App. Every judge fails
// closed on it (nobody's authority is judged, no deployment is approved);
// it is not retried, since reading again gives the same answer until the
// file or the permission is fixed.
type Unusable struct{ Why string }

func (u *Unusable) Error() string { return u.Why }

// codeOwners is cfg with its owners read from CODEOWNERS when the config
// says so (otherwise cfg itself): the file found first at
// codeowners.Locations on commit (the default branch's, where the config
// was read), all three looked up in one read. A failed read is an error to
// retry; a missing or unusable file is *Unusable; a file GitHub would
// refuse a line of is its config.Errors, positioned in that file.
func codeOwners(ctx context.Context, r FileReader, owner, repo, commit string, cfg *config.Config) (*config.Config, error) {
	if cfg == nil || cfg.OwnersFrom != config.OwnersFromCodeOwners {
		return cfg, nil
	}
	if commit == "" {
		return nil, &Unusable{Why: "owners come from CODEOWNERS, but the default branch's commit is unknown"}
	}
	files, err := r.ReadFiles(ctx, owner, repo, commit, codeowners.Locations)
	if err != nil {
		return nil, fmt.Errorf("read CODEOWNERS: %w", err)
	}
	for _, f := range files {
		switch {
		case f.Missing:
			continue
		case f.Symlink, f.Binary, f.TooLarge:
			return nil, &Unusable{Why: fmt.Sprintf("owners come from CODEOWNERS, but %s on the default branch is a symlink, binary or too large to read whole", f.Path)}
		}
		file, probs := codeowners.Parse(f.Path, f.Content)
		if probs != nil {
			return nil, probs
		}
		return cfg.WithCodeOwners(file), nil
	}
	return nil, &Unusable{Why: "owners come from CODEOWNERS, but the default branch has none at " + strings.Join(codeowners.Locations, ", ") +
		": add one, or list the owners in the config"}
}
