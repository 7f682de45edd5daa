package gh

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// CreateAttestation stores bundle (a Sigstore bundle's JSON) as an
// artifact attestation of the repository and returns GitHub's ID for it.
// The App needs the attestations:write permission; without it GitHub
// answers 403, returned wrapped in ErrCheckForbidden.
//
// https://docs.github.com/en/rest/repos/attestations#create-an-attestation
func (in *Installation) CreateAttestation(ctx context.Context, owner, repo string, bundle []byte) (int64, error) {
	body := struct {
		Bundle json.RawMessage `json:"bundle"`
	}{Bundle: bundle}
	req, err := in.rest.NewRequest(http.MethodPost, fmt.Sprintf("repos/%s/%s/attestations", url.PathEscape(owner), url.PathEscape(repo)), body)
	if err != nil {
		return 0, fmt.Errorf("create attestation: %w", err)
	}
	var out struct {
		ID int64 `json:"id"`
	}
	if _, err := in.rest.Do(ctx, req, &out); err != nil {
		return 0, classify("create attestation", err)
	}
	return out.ID, nil
}
