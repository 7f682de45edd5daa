package app

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/manifest"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/google/go-cmp/cmp"
)

// needsPermissions are the permissions reading each optional part of a
// snapshot takes (snapshot.Needs's fields, by name).
var needsPermissions = map[string][]manifest.Permission{
	"Conversation": {manifest.Issues, manifest.PullRequests},
	"Files":        {manifest.PullRequests},
	"Commits":      {manifest.PullRequests},
	"HeadChecks":   {manifest.Checks, manifest.Actions},
	"Lanes":        {manifest.Issues, manifest.PullRequests},
}

// eventPermissions are the permissions GitHub requires before an App may
// subscribe to each event (any one of them suffices).
var eventPermissions = map[string][]manifest.Permission{
	"check_run": {manifest.Checks}, "check_suite": {manifest.Checks},
	"issue_comment": {manifest.Issues, manifest.PullRequests}, "issues": {manifest.Issues},
	"merge_group": {manifest.MergeQueues}, "milestone": {manifest.Issues, manifest.PullRequests},
	"pull_request": {manifest.PullRequests}, "pull_request_review": {manifest.PullRequests},
	"push": {manifest.Contents}, "release": {manifest.Contents}, "workflow_run": {manifest.Actions},
	"deployment_protection_rule": {manifest.Deployments},
}

// documentedOnly are events GitHub sends that the recorded examples lack;
// each has a payload written from GitHub's webhook reference in
// testdata/webhooks (TestDeployFamily decodes it).
var documentedOnly = []string{"deployment_protection_rule"}

// missingPermissions lists what the checks read (their snapshot.Needs,
// plus Checks: write and Contents: read for the config every check is
// judged with) that their entry in features does not grant.
func missingPermissions(checks []verdict.Check, features []manifest.Feature) []string {
	byName := map[string]manifest.Feature{}
	for _, f := range features {
		byName[f.Name] = f
	}
	var missing []string
	for _, c := range checks {
		f, ok := byName[c.Name]
		if !ok {
			missing = append(missing, c.Name+": no feature")
			continue
		}
		want := map[manifest.Permission]manifest.Access{manifest.Checks: manifest.Write, manifest.Contents: manifest.Read}
		v := reflect.ValueOf(c.Needs)
		for i := range v.NumField() {
			field := v.Type().Field(i).Name
			ps, known := needsPermissions[field]
			if !known {
				missing = append(missing, fmt.Sprintf("snapshot.Needs.%s: no permissions known", field))
			}
			if v.Field(i).Bool() {
				for _, p := range ps {
					want[p] = manifest.Read
				}
			}
		}
		for _, p := range manifest.SortedPermissions(want) {
			if got := f.Needs[p]; got == "" || (want[p] == manifest.Write && got != manifest.Write) {
				missing = append(missing, fmt.Sprintf("%s: %s %s", c.Name, p, want[p]))
			}
		}
	}
	return missing
}

func TestFeaturesGrantWhatChecksRead(t *testing.T) {
	if got := missingPermissions(verdict.DefaultChecks(), manifest.Features()); len(got) != 0 {
		t.Errorf("Features() lacks what the checks read:\n%s", strings.Join(got, "\n"))
	}
}

// A check that starts reading the workflow runs at the head without its
// feature granting Actions: read is caught.
func TestFeaturesGrantWhatChecksReadNegativeControl(t *testing.T) {
	checks := append(verdict.DefaultChecks(), verdict.Check{Name: "aepgate/new", Needs: snapshot.Needs{HeadChecks: true}})
	features := append(manifest.Features(), manifest.Feature{Name: "aepgate/new", Needs: map[manifest.Permission]manifest.Access{manifest.Checks: manifest.Write, manifest.Contents: manifest.Read}})
	want := []string{"aepgate/new: actions read"}
	if diff := cmp.Diff(want, missingPermissions(checks, features)); diff != "" {
		t.Errorf("missingPermissions (-want +got):\n%s", diff)
	}
}

func TestEveryCheckRunIsAFeature(t *testing.T) {
	var want []string
	for _, c := range verdict.DefaultChecks() {
		want = append(want, c.Name)
	}
	want = append(want, checks.NameReadback, checks.NameCertificate, checks.NameAppRelease, checks.NameIncrement, manifest.DeployFeature, manifest.MergeFeature)
	var got []string
	for _, f := range manifest.Features() {
		got = append(got, f.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Features() names (-checks the App writes +features):\n%s", diff)
	}
}

// TestSubscribedEventsStartWork: the manifest subscribes to exactly the
// events a family handles, and the edge queues each of them.
func TestSubscribedEventsStartWork(t *testing.T) {
	fs := Families()
	for _, e := range Events() {
		if !fs.Handles(e) {
			t.Errorf("subscribed event %s starts no work", e)
		}
	}
	if fs.Handles("star") || fs.Handles("") {
		t.Error("an event no family declares starts work")
	}
}

// Every subscribed event is one GitHub sends (it has recorded examples) and
// the permissions grant what GitHub requires to subscribe to it.
func TestEventsAreSubscribable(t *testing.T) {
	sent := map[string]bool{}
	for _, w := range fixtures.Webhooks(t) {
		sent[w.Event] = true
	}
	for _, e := range documentedOnly {
		sent[e] = true
	}
	perms := manifest.Permissions()
	for _, e := range Events() {
		if !sent[e] {
			t.Errorf("event %q: GitHub's webhook examples have none", e)
		}
		if !slices.ContainsFunc(eventPermissions[e], func(p manifest.Permission) bool { return perms[p] != "" }) {
			t.Errorf("event %q needs one of %v, which Permissions() lacks", e, eventPermissions[e])
		}
	}
}

var (
	docsPermRow = regexp.MustCompile(`(?m)^\| (\S[^|]*?) \| (Read-only|Read and write) \|`)
	docsEvents  = regexp.MustCompile(`\*\*Subscribe to events:\*\* ([^.]+)\.`)
)

// docs/app.md's permission table and event list say what Features says.
func TestDocsAgreeWithFeatures(t *testing.T) {
	b, err := os.ReadFile("../docs/app.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for p, a := range manifest.Permissions() {
		want[p.Title()] = map[manifest.Access]string{manifest.Read: "Read-only", manifest.Write: "Read and write"}[a]
	}
	got := map[string]string{}
	for _, m := range docsPermRow.FindAllStringSubmatch(string(b), -1) {
		got[m[1]] = m[2]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/app.md permission table (-Permissions() +docs):\n%s", diff)
	}
	var wantEvents []string
	for _, e := range Events() {
		title := strings.ReplaceAll(e, "_", " ")
		wantEvents = append(wantEvents, strings.ToUpper(title[:1])+title[1:])
	}
	m := docsEvents.FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/app.md has no **Subscribe to events:** line")
	}
	gotEvents := strings.Split(strings.Join(strings.Fields(string(m[1])), " "), ", ")
	if diff := cmp.Diff(wantEvents, gotEvents); diff != "" {
		t.Errorf("docs/app.md events (-Events() +docs):\n%s", diff)
	}
}
