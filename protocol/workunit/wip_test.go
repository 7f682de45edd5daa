package workunit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestOverLimits(t *testing.T) {
	lane := func(pr, unit int) Lane {
		return Lane{PR: pr, Unit: unit, URL: "https://github.test/acme/app/pull/" + itoa(pr)}
	}
	tests := []struct {
		name string
		open []Lane
		lim  Limits
		want map[int]Over
	}{
		{"none open", nil, Limits{1, 2}, map[int]Over{}},
		{"within both", []Lane{lane(10, 1), lane(11, 2)}, Limits{1, 2}, map[int]Over{}},
		{"second attempt of a unit", []Lane{lane(11, 1), lane(10, 1)}, Limits{1, 2}, map[int]Over{
			11: {Limit: LimitAttempts, Reason: "limits.attempts_per_unit is 1: work unit #1 already has [#10](https://github.test/acme/app/pull/10) open; finish or close it before another attempt"},
		}},
		{"two attempts allowed", []Lane{lane(10, 1), lane(11, 1), lane(12, 1)}, Limits{2, 2}, map[int]Over{
			12: {Limit: LimitAttempts, Reason: "limits.attempts_per_unit is 2: work unit #1 already has [#10](https://github.test/acme/app/pull/10), [#11](https://github.test/acme/app/pull/11) open; finish or close it before another attempt"},
		}},
		{"third lane", []Lane{lane(10, 1), lane(11, 2), lane(12, 3)}, Limits{1, 2}, map[int]Over{
			12: {Limit: LimitLanes, Reason: "limits.lanes_per_increment is 2: the increment's open lanes are #1 ([#10](https://github.test/acme/app/pull/10)), #2 ([#11](https://github.test/acme/app/pull/11)); finish one before starting work unit #3"},
		}},
		{"lanes ordered by oldest attempt", []Lane{lane(20, 3), lane(12, 1), lane(15, 2)}, Limits{1, 1}, map[int]Over{
			15: {Limit: LimitLanes, Reason: "limits.lanes_per_increment is 1: the increment's open lanes are #1 ([#12](https://github.test/acme/app/pull/12)); finish one before starting work unit #2"},
			20: {Limit: LimitLanes, Reason: "limits.lanes_per_increment is 1: the increment's open lanes are #1 ([#12](https://github.test/acme/app/pull/12)); finish one before starting work unit #3"},
		}},
		{"over both: the attempts limit is named", []Lane{lane(10, 1), lane(11, 2), lane(12, 2)}, Limits{1, 1}, map[int]Over{
			11: {Limit: LimitLanes, Reason: "limits.lanes_per_increment is 1: the increment's open lanes are #1 ([#10](https://github.test/acme/app/pull/10)); finish one before starting work unit #2"},
			12: {Limit: LimitAttempts, Reason: "limits.attempts_per_unit is 1: work unit #2 already has [#11](https://github.test/acme/app/pull/11) open; finish or close it before another attempt"},
		}},
		{"zero limits are not checked", []Lane{lane(10, 1), lane(11, 1), lane(12, 2)}, Limits{}, map[int]Over{}},
		{"no URL", []Lane{{PR: 1, Unit: 5}, {PR: 2, Unit: 5}}, Limits{1, 2}, map[int]Over{
			2: {Limit: LimitAttempts, Reason: "limits.attempts_per_unit is 1: work unit #5 already has #1 open; finish or close it before another attempt"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := OverLimits(tt.open, tt.lim)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Over{}, "Within")); diff != "" {
				t.Errorf("OverLimits (-want +got):\n%s", diff)
			}
		})
	}
}

func itoa(n int) string { return Ref{Number: n}.String()[1:] }

func TestEvaluateWIP(t *testing.T) {
	one := []Ref{{Number: 1}}
	lanes := []Lane{{PR: 10, Unit: 1}, {PR: 11, Unit: 1}}
	unknown := "the WIP limits (limits.attempts_per_unit, limits.lanes_per_increment) cannot be judged: GitHub holds more mentions of #1, #3 than the App could read, and its index of open attempts cannot vouch for them, so some open attempts are unknown; close the stale pull requests that name them, or wait for the App's next sweep, which lists the open pull requests and judges this one again"
	tests := []struct {
		name   string
		pr     int
		lanes  []Lane
		unread []int
		lim    Limits
		want   []string
	}{
		{"first attempt", 10, lanes, nil, Limits{1, 2}, nil},
		{"second attempt", 11, lanes, nil, Limits{1, 2}, []string{"limits.attempts_per_unit is 1: work unit #1 already has #10 open; finish or close it before another attempt"}},
		{"lanes not read", 11, nil, nil, Limits{1, 2}, nil},
		// Attempts of #1 and #3 beyond those read are unknown: the first
		// attempt read may not be the first there is.
		{"first attempt read, some unread: refused", 10, lanes, []int{1, 3}, Limits{1, 2}, []string{unknown}},
		{"over among those read, some unread: over", 11, lanes, []int{1, 3}, Limits{1, 2}, []string{"limits.attempts_per_unit is 1: work unit #1 already has #10 open; finish or close it before another attempt"}},
		{"some unread, no limit set", 10, lanes, []int{1}, Limits{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Evaluate(Input{Refs: one, Unit: fixture(), PR: tt.pr, Lanes: tt.lanes, LanesUnread: tt.unread, Limits: tt.lim})
			if diff := cmp.Diff(tt.want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			if got.OK != (len(tt.want) == 0) {
				t.Errorf("OK = %v", got.OK)
			}
		})
	}
}

func TestOverLimitsWithin(t *testing.T) {
	got := OverLimits([]Lane{{PR: 10, Unit: 1}, {PR: 11, Unit: 1}, {PR: 12, Unit: 2}, {PR: 13, Unit: 3}}, Limits{1, 2})
	want := map[int][]Lane{11: {{PR: 10, Unit: 1}}, 13: {{PR: 10, Unit: 1}, {PR: 12, Unit: 2}}}
	for pr, w := range want {
		if diff := cmp.Diff(w, got[pr].Within); diff != "" {
			t.Errorf("#%d within (-want +got):\n%s", pr, diff)
		}
	}
}
