package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
)

// auditFail is carol's FAIL with a finding quoting the code.
func (st *story) auditFail() beat {
	return beat{title: "carol (independent auditor) reviews: FAIL, finding F1 quotes the unwrapped error in export/export.go",
		act: func() error {
			st.finding = "F1@r" + strconv.FormatInt(st.s.pr.SubmitReview(auditor, "COMMENTED", auditBody(st.s.unit.Number(), "FAIL")), 10)
			return nil
		},
		until: func() bool {
			r := st.w.newest(st.s.pr.Head(), "aepgate/audit")
			return r != nil && len(r.Annotations) > 0
		},
		what:   "aepgate/audit with the finding as an annotation",
		detail: func() (string, error) { return st.annotations("aepgate/audit"), nil }}
}

// correction pushes the fix; the FAIL was for the old head.
func (st *story) correction() beat {
	return beat{title: "bob pushes the correction (the error is wrapped) and updates his report; ci passes; the FAIL and the owner's approval were for the old head",
		act: func() error {
			st.push("PR head 3", "wrap the export error", map[string]string{"export/export.go": exportV2})
			return nil
		},
		until: func() bool {
			return st.w.is(st.s.pr.Head(), "aepgate/gates", "action_required")() && st.headJudged("failure", "failure")()
		},
		what: "the App's checks on the corrected head"}
}

// dispose is bob's disposition of the finding, which the PASS then judges.
func (st *story) dispose() beat {
	var id int64
	return beat{title: "bob comments '/aep dispose F1@r… fixed -- the error is wrapped now' on the pull request",
		act: func() error {
			id = st.s.pr.Comment(worker, "/aep dispose "+st.finding+" fixed -- the error is wrapped now").ID()
			return nil
		},
		until: func() bool { return st.w.reacted(id, "+1")() }, what: "a 👍 on the disposition",
		detail: func() (string, error) {
			return "aepgate reacted 👍: the disposition stands until the auditor judges it", nil
		}}
}

// auditPass is carol's PASS bound to the corrected head.
func (st *story) auditPass() beat {
	return beat{title: "carol reviews the corrected head: PASS, bound to its commit, agreeing that F1 is fixed",
		act: func() error {
			st.s.pr.SubmitReview(auditor, "COMMENTED", auditBody(st.s.unit.Number(), "PASS", st.finding))
			return nil
		},
		until: st.headJudged("success", "success"), what: "aepgate/audit and aepgate/merge success"}
}

// mergePR merges with a merge commit; readback starts on it.
func (st *story) mergePR() beat {
	return beat{title: "bob merges PR #3 (merge commit): aepgate/readback waits for ci on main",
		act: func() error {
			st.merge = st.s.pr.Merge(ghfake.MergeCommit)
			st.w.rec.watch("merge commit", st.merge)
			return nil
		},
		until: func() bool { return st.w.is(st.merge, "aepgate/readback", "in_progress")() },
		what:  "aepgate/readback in progress"}
}

// mainCI is the ci run on main at the merge SHA, and the certificate. Its
// wait reads st.merge when it runs: the beat is built before mergePR sets
// it.
func (st *story) mainCI() beat {
	return beat{title: "ci runs on main at the merge commit (push): readback observed, certificate issued",
		act: func() error {
			st.w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: st.merge, Branch: "main", Event: "push"})
			return nil
		},
		until: func() bool {
			return all(st.w.is(st.merge, "aepgate/readback", "success"), st.w.is(st.merge, "aepgate/certificate", "success"))()
		},
		what: "aepgate/readback and aepgate/certificate success"}
}

// verifyCertificate checks the certificate run as `certificate fetch`
// does and returns its canonical JSON.
func verifyCertificate(r *ghfake.CheckRun) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("no aepgate/certificate run")
	}
	raw, refused := checks.VerifyCertificateRun(checks.Run{Name: r.Name, HeadSHA: r.HeadSHA, ExternalID: r.ExternalID,
		Status: checks.Status(r.Status), Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary})
	if len(refused) > 0 {
		return nil, fmt.Errorf("certificate run refused: %v", refused)
	}
	if v := certificate.Validate(raw); !v.Valid {
		return nil, fmt.Errorf("certificate invalid: %v", v.Errors)
	}
	return raw, nil
}

// release tags v1.0.0 on main with a manifest and publishes the release
// with its receipt; aepgate/release judges its closure.
func (st *story) release() beat {
	install := "#!/bin/sh\necho widgets v1.0.0\n"
	return beat{title: "olivia tags v1.0.0 on main and publishes the release (manifest, install.sh, receipt)",
		act: func() error {
			readme, _ := st.w.repo.File("main", "README.md")
			manifest := sum(readme) + "  README.md\n" + sum(install) + "  install.sh\n"
			files := map[string]string{"install.sh": install, "manifest.sha256": manifest}
			st.tagged = st.w.repo.Commit("main", "release 1.0.0", files)
			st.w.rec.watch("v1.0.0", st.tagged)
			st.w.repo.Tag("v1.0.0", "main", "release v1.0.0")
			receipt, err := json.Marshal(map[string]any{
				"schemaVersion": 1, "version": "1.0.0", "tag": "v1.0.0", "commit": st.tagged, "state": "adopted",
				"ownerFacingOrchestratorSessionId": "orch-1", "adoptedAt": "2026-11-29T12:00:00Z",
				"adoptions": []any{map[string]any{"project": "widgets", "coordinatorSessionId": "c-1"}},
			})
			if err != nil {
				return err
			}
			st.w.repo.PublishRelease("v1.0.0", ghfake.ReleaseOptions{Body: "Notes\n\n```json\n" + string(receipt) + "\n```\n",
				Assets: map[string][]byte{"manifest.sha256": []byte(manifest), "install.sh": []byte(install)}})
			return nil
		},
		until: func() bool { return st.w.is(st.tagged, "aepgate/release", "success")() },
		what:  "aepgate/release success"}
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
