package ready

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// pingTimeout bounds the database's answer to one probe.
const pingTimeout = 2 * time.Second

// Handler answers /readyz: 503 with the reason while ping (the database,
// and so the queue) fails or GitHub did not accept the App's credentials
// at g's last check, else 200. It never waits for GitHub.
func Handler(ping func(context.Context) error, g *GitHub, log *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), pingTimeout)
		defer cancel()
		if err := ping(ctx); err != nil {
			log.Warn("not ready", "err", err)
			http.Error(w, "database or queue unreachable\n", http.StatusServiceUnavailable)
			return
		}
		if _, ok := g.Verified(); !ok {
			msg := "GitHub has not accepted the App's credentials yet"
			if err := g.Refusal(); err != nil {
				msg = fmt.Sprintf("GitHub refuses the App's credentials (%v): check the App ID and the private key; "+
					"a key deleted in the App's settings needs a new one there", err)
			}
			http.Error(w, msg+"\n", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	}
}
