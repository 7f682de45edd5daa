package lint

import (
	"strings"
	"testing"
)

// TestLowererLowersAsToLower: the reused-buffer lowering gives what
// strings.ToLower gives, for ASCII, other scripts, text with nothing to
// lower and text that is not UTF-8, call after call on one lowerer.
func TestLowererLowersAsToLower(t *testing.T) {
	inputs := []string{
		"", "already lower", "Negative Control: REMOVE the check → it FAILS",
		"ÉTAPE — Contrôle NÉGATIF", "ΣΊΣΥΦΟΣ", "İstanbul KELVIN K", "bad \xff UTF-8 ABC",
		strings.Repeat("Long Body ", 1000), "Short",
	}
	var lw lowerer
	for _, in := range inputs {
		if got, want := lw.lower(in), strings.ToLower(in); got != want {
			t.Errorf("lower(%.40q) = %.40q, want %.40q", in, got, want)
		}
	}
}

// TestGatesLowerOnce: L5 judges each gate on its body lowered by one
// lowerer (rules.go); a gate whose body is in capitals is judged as its
// lowercase twin, before and after a longer body used the buffer.
func TestGatesLowerOnce(t *testing.T) {
	stated := "Negative control: REMOVE the signature check; the test FAILS with 401."
	var lw lowerer
	for _, body := range []string{stated, strings.Repeat("filler text ", 500), stated} {
		if got, want := statesLowered(lw.lower(body), true), StatesNegativeControl(body); got != want {
			t.Errorf("%.30q: lowered once %v, StatesNegativeControl %v", body, got, want)
		}
	}
	if !StatesNegativeControl(stated) {
		t.Fatalf("the stated control is not recognised: the test would prove nothing")
	}
}
