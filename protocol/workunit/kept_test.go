package workunit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKeepContract(t *testing.T) {
	kept := Contract{Goal: "g", Acceptance: []string{"a", "b"}, NonGoals: []string{"n"}, Risk: RiskHigh, Class: ClassProduct, DependsOn: []int{3}}
	with := func(f func(*Contract)) Contract {
		c := kept
		c.Acceptance, c.NonGoals, c.DependsOn = append([]string(nil), kept.Acceptance...), append([]string(nil), kept.NonGoals...), append([]int(nil), kept.DependsOn...)
		f(&c)
		return c
	}
	tests := []struct {
		name        string
		kept        *Contract
		next        Contract
		entitled    bool
		want        Contract
		wantIgnored []string
	}{
		{"first judged is kept", nil, with(func(c *Contract) { c.Risk = RiskLow }), false, with(func(c *Contract) { c.Risk = RiskLow }), nil},
		{"a writer lowers risk", &kept, with(func(c *Contract) { c.Risk = RiskLow }), false, kept, []string{"risk lowered from high to low"}},
		{"an owner lowers risk", &kept, with(func(c *Contract) { c.Risk = RiskLow }), true, with(func(c *Contract) { c.Risk = RiskLow }), nil},
		{"a writer raises risk", ptr(with(func(c *Contract) { c.Risk = RiskLow })), kept, false, kept, nil},
		{"a writer removes the risk", &kept, with(func(c *Contract) { c.Risk = "" }), false, kept, []string{"risk lowered from high to none"}},
		{"a writer changes the class", &kept, with(func(c *Contract) { c.Class = ClassHousekeeping }), false, kept, []string{"class changed from product to housekeeping"}},
		{"a writer drops a criterion and adds one", &kept, with(func(c *Contract) { c.Acceptance = []string{"a", "c"} }), false,
			with(func(c *Contract) { c.Acceptance = []string{"a", "b", "c"} }), []string{`acceptance criterion "b" removed`}},
		{"a writer adds a criterion", &kept, with(func(c *Contract) { c.Acceptance = append(c.Acceptance, "c") }), false,
			with(func(c *Contract) { c.Acceptance = append(c.Acceptance, "c") }), nil},
		{"a writer drops a dependency", &kept, with(func(c *Contract) { c.DependsOn = nil }), false, kept, []string{"dependency #3 removed"}},
		{"a writer adds a dependency", &kept, with(func(c *Contract) { c.DependsOn = []int{3, 4} }), false, with(func(c *Contract) { c.DependsOn = []int{3, 4} }), nil},
		{"a writer changes goal and non-goals", &kept, with(func(c *Contract) { c.Goal, c.NonGoals = "h", []string{"m"} }), false, kept,
			[]string{"goal changed", "non_goals changed"}},
		{"a writer raises risk and lowers the rest", ptr(with(func(c *Contract) { c.Risk = RiskMedium })), with(func(c *Contract) { c.Class, c.DependsOn = ClassContract, nil }), false,
			kept, []string{"class changed from product to contract", "dependency #3 removed"}},
		{"an invalid body keeps the kept contract", &kept, Contract{}, false, kept,
			[]string{"risk lowered from high to none", "class changed from product to none", "goal changed", "non_goals changed",
				`acceptance criterion "a" removed`, `acceptance criterion "b" removed`, "dependency #3 removed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ignored := KeepContract(tt.kept, tt.next, tt.entitled)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("contract (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantIgnored, ignored); diff != "" {
				t.Errorf("ignored (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeepIncrement(t *testing.T) {
	kept := IncrementSpec{Demonstration: "demo", Risk: RiskHigh, NonGoals: []string{"n"}}
	tests := []struct {
		name        string
		kept        *IncrementSpec
		next        IncrementSpec
		entitled    bool
		want        IncrementSpec
		wantIgnored []string
	}{
		{"first judged is kept", nil, IncrementSpec{Risk: RiskLow}, false, IncrementSpec{Risk: RiskLow}, nil},
		{"a writer lowers the tier", &kept, IncrementSpec{Demonstration: "demo", Risk: RiskLow, NonGoals: []string{"n"}}, false, kept, []string{"risk lowered from high to low"}},
		{"a writer removes the block", &kept, IncrementSpec{}, false, kept, []string{"risk lowered from high to none", "demonstration changed", "non_goals changed"}},
		{"an owner lowers the tier", &kept, IncrementSpec{Demonstration: "demo", Risk: RiskLow, NonGoals: []string{"n"}}, true, IncrementSpec{Demonstration: "demo", Risk: RiskLow, NonGoals: []string{"n"}}, nil},
		{"anyone raises an undeclared tier", &IncrementSpec{}, IncrementSpec{Risk: RiskMedium}, false, IncrementSpec{Risk: RiskMedium}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ignored := KeepIncrement(tt.kept, tt.next, tt.entitled)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantIgnored, ignored); diff != "" {
				t.Errorf("ignored (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeptTamper(t *testing.T) {
	var none *Kept
	if none.Tamper() != "" || (&Kept{}).Tamper() != "" {
		t.Fatal("a kept contract without ignored parts shows tampering")
	}
	got := (&Kept{Ignored: []string{"risk lowered from high to low"}, EditedBy: "mallory"}).Tamper()
	want := "the contract was changed by `mallory`, who may not change it, so the kept contract counts (risk lowered from high to low); an owner or coordinator edits the issue to make a change count"
	if got != want {
		t.Errorf("Tamper() = %q, want %q", got, want)
	}
}

func ptr[T any](v T) *T { return &v }
