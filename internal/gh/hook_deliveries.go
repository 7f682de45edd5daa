package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/go-github/v62/github"
)

// HookDelivery is one entry of the App's webhook delivery log: one attempt
// to deliver the event GUID (a redelivery keeps the GUID).
type HookDelivery struct {
	// ID names this attempt in the log (POST …/{id}/attempts).
	ID int64
	// GUID is the event's X-GitHub-Delivery, shared by its redeliveries.
	GUID string
	// DeliveredAt is when GitHub made the attempt.
	DeliveredAt time.Time
	// Redelivery marks an attempt made on request rather than by the event.
	Redelivery bool
	// StatusCode is the App's answer (0: none).
	StatusCode int
	// Event and Action name what was delivered.
	Event, Action string
}

// appREST is a go-github client authenticated as the App (JWT) whose rate
// limits come back as *RateLimitError, each call told to Observe.
func (c *Clients) appREST() (*github.Client, error) {
	var rt http.RoundTripper = &rateLimitTransport{base: c.auth.base, observe: c.Observe}
	return NewClient(c.baseURL, &http.Client{Transport: &jwtTransport{auth: c.auth, base: rt}})
}

// HookDeliveries reads one page of the App's webhook delivery log, newest
// first, from cursor ("": the newest), perPage entries (GitHub: at most
// 100); it returns the next page's cursor, "" after the last page. GitHub
// keeps three days of the log.
//
// https://docs.github.com/rest/apps/webhooks#list-deliveries-for-an-app-webhook
func (c *Clients) HookDeliveries(ctx context.Context, cursor string, perPage int) ([]HookDelivery, string, error) {
	client, err := c.appREST()
	if err != nil {
		return nil, "", err
	}
	page, resp, err := client.Apps.ListHookDeliveries(ctx, &github.ListCursorOptions{Cursor: cursor, PerPage: perPage})
	if err != nil {
		return nil, "", fmt.Errorf("list hook deliveries: %w", err)
	}
	out := make([]HookDelivery, 0, len(page))
	for _, d := range page {
		out = append(out, HookDelivery{ID: d.GetID(), GUID: d.GetGUID(), DeliveredAt: d.GetDeliveredAt().Time,
			Redelivery: d.GetRedelivery(), StatusCode: d.GetStatusCode(), Event: d.GetEvent(), Action: d.GetAction()})
	}
	return out, resp.Cursor, nil
}

// RedeliverHook asks GitHub to deliver the delivery log's entry id again
// (same GUID); GitHub answers 202 and delivers later.
//
// https://docs.github.com/rest/apps/webhooks#redeliver-a-delivery-for-an-app-webhook
func (c *Clients) RedeliverHook(ctx context.Context, id int64) error {
	client, err := c.appREST()
	if err != nil {
		return err
	}
	_, _, err = client.Apps.RedeliverHookDelivery(ctx, id)
	var accepted *github.AcceptedError
	if err != nil && !errors.As(err, &accepted) {
		return fmt.Errorf("redeliver hook delivery %d: %w", id, err)
	}
	return nil
}
