package queue

import (
	"log/slog"
	"strings"
	"testing"
)

func TestRiverLoggerKeepsOnlyWarnings(t *testing.T) {
	var buf strings.Builder
	l := riverLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Info("chatter")
	l.With("k", "v").Debug("more chatter")
	l.With("k", "v").Warn("trouble")
	if got := buf.String(); strings.Contains(got, "chatter") || !strings.Contains(got, "trouble") || !strings.Contains(got, "component=river") {
		t.Errorf("log:\n%s", got)
	}
}
