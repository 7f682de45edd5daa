package release

import (
	"errors"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/config"
)

func TestConfigProblem(t *testing.T) {
	tests := []struct {
		name, text string
		// prefix the problem starts with; more is its "(and N more)" tail.
		prefix, more string
	}{
		{name: "one error", text: "version: 1\nbogus: 1\n", prefix: config.DefaultPath + ":2"},
		{name: "two errors", text: "version: 1\nbogus: 1\nother: 2\n", prefix: config.DefaultPath + ":2", more: " (and 1 more)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse(config.DefaultPath, []byte(tt.text))
			if err == nil {
				t.Fatal("config parsed")
			}
			got := configProblem(err)
			if !strings.HasPrefix(got, tt.prefix) || strings.Contains(got, "\n") || !strings.HasSuffix(got, tt.more) || (tt.more == "") == strings.Contains(got, "more)") {
				t.Errorf("configProblem = %q, want prefix %q, suffix %q, one line", got, tt.prefix, tt.more)
			}
		})
	}
	if got, want := configProblem(errors.New("plain")), "plain"; got != want {
		t.Errorf("configProblem(plain) = %q, want %q", got, want)
	}
}
