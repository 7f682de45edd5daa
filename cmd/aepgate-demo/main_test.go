package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoUsage: --help explains the command; a bad scenario or speed, or
// a stray argument, exits 2 with a clear message and writes nothing.
func TestDemoUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  []string // in stdout
		err  string   // in stderr
	}{
		{"help", []string{"--help"}, 0, []string{"'aepgate serve'", "happy", "attacks", "outage", "--speed", "index.html", "Exit codes"}, ""},
		{"bad scenario", []string{"--scenario", "sunny"}, 2, nil, `--scenario "sunny": use one of happy, attacks, outage (see 'aepgate-demo --help')`},
		{"bad speed", []string{"--speed", "warp"}, 2, nil, `--speed "warp": use fast or real (see 'aepgate-demo --help')`},
		{"stray argument", []string{"now"}, 2, nil, "unknown command"},
		{"version", []string{"--version"}, 0, []string{"aepgate-demo "}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			var stdout, stderr bytes.Buffer
			got := run(context.Background(), append(tt.args, "--out", out), &stdout, &stderr)
			if got != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", got, tt.code, stderr.String())
			}
			for _, want := range tt.out {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if !strings.Contains(stderr.String(), tt.err) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.err)
			}
			if _, err := os.Stat(out); tt.code == 2 && err == nil {
				t.Errorf("a refused demo wrote %s", out)
			}
		})
	}
}

// TestDemoHappyThroughTheBinary runs aepgate-demo as a user would: the
// story ends certified, `certificate fetch` (the unit's and, with
// --increment, the increment's) and `ledger verify` run as
// the binary's own commands, and the report is written.
func TestDemoHappyThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole happy scenario")
	}
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"--out", out}, &stdout, &stderr); got != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", got, stdout.String(), stderr.String())
	}
	for _, want := range []string{"[26/26 ██████████]", "certificate: check run", "increment certificate: milestone 1, check run ", "$ aepgate ledger verify --jwks keys.jwks\nledger intact:", "signed head: row ",
		"aepgate certificate verify certificate.dsse.json --jwks keys.jwks --revocations revocations.json --repo acme/widgets --sha ", "verified offline: signed by key ", "Figures:", "index.html"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, f := range []string{"index.html", "timeline.json", "app.log", "certificate.dsse.json", "keys.jwks", "increment.dsse.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// The signed increment certificate was verified offline by the real
	// `aepgate certificate verify --story` (a refusal would be a problem,
	// and a non-zero exit above).
	if tl, err := os.ReadFile(filepath.Join(out, "timeline.json")); err != nil || !strings.Contains(string(tl), `"incrementAttestation"`) || !strings.Contains(string(tl), `https://aepgate.dev/increment/v1`) {
		t.Errorf("timeline.json lacks the verified increment attestation (%v)", err)
	}
}
