package review

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/command"
)

// EvidenceInfo is the info string of the fenced block that carries a
// dispose comment's evidence: a JSON or YAML list of {path, quote}.
const EvidenceInfo = "aep-evidence"

// Dispositions reads the dispose commands of a comment (command.Parse with
// prefix) and gives each the evidence of the comment's one aep-evidence
// block, if any: one block serves every dispose command of the comment,
// so a comment disposes of findings with different evidence one comment
// each. A refuted disposition needs evidence. When the block or any
// command is malformed, or a refuted disposition has no evidence, no
// disposition of the comment counts and the errors say why. The caller
// sets the comment's ID, URL, author, time and edited flag.
func Dispositions(body, prefix string) ([]Disposition, []error) {
	var out []Disposition
	var errs []error
	for _, c := range command.Parse(body, prefix) {
		if c.Verb != command.VerbDispose {
			continue
		}
		if c.Err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", c.Line, c.Err))
			continue
		}
		out = append(out, Disposition{FindingID: c.FindingID, Kind: c.Kind, Reason: c.Reason})
	}
	if len(out) == 0 && len(errs) == 0 {
		return nil, nil
	}
	ev, err := disposeEvidence(body)
	if err != nil {
		errs = append(errs, err)
	}
	for i := range out {
		out[i].Evidence = ev
		if out[i].Kind == command.DisposeRefuted && len(ev) == 0 && err == nil {
			errs = append(errs, fmt.Errorf("%s: a refuted disposition quotes its evidence in an %s block", out[i].FindingID, EvidenceInfo))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// disposeEvidence reads the comment's aep-evidence block; none gives nil.
func disposeEvidence(body string) ([]Evidence, error) {
	blocks := command.FencedBlocks(body, EvidenceInfo)
	switch {
	case len(blocks) == 0:
		return nil, nil
	case len(blocks) > 1:
		return nil, fmt.Errorf("the comment has %d %s blocks; it may hold one", len(blocks), EvidenceInfo)
	case len(blocks[0].Text) > MaxBlockBytes:
		return nil, fmt.Errorf("the %s block is larger than %d bytes", EvidenceInfo, MaxBlockBytes)
	}
	tree, err := readTree(blocks[0].Text, blocks[0].Line+1)
	if err != nil {
		return nil, fmt.Errorf("the %s block: %w", EvidenceInfo, err)
	}
	d := &decoder{}
	var ev []Evidence
	d.evidence(&ev, 1)(tree, "$")
	for i, e := range ev {
		if err := CheckPath(e.Path); err != nil && e.Path != "" {
			d.probs.add(fmt.Sprintf("$[%d].path", i), "%s", err.Error())
		}
	}
	if len(d.probs) > 0 {
		return nil, fmt.Errorf("the %s block: %w", EvidenceInfo, d.probs)
	}
	return ev, nil
}
