package ghfake

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// hookRoutes serves the App's webhook delivery log (JWT), which an App
// uses to find and redeliver what it missed; GitHub keeps 3 days of it.
func (f *Fake) hookRoutes() {
	f.handle("GET /app/hook/deliveries", access{scope: scopeApp}, func(c *call) (int, any) {
		out := []any{}
		for i := len(c.f.hooks.sent) - 1; i >= 0; i-- { // newest first
			out = append(out, c.f.deliveryJSON(i, false))
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /app/hook/deliveries/{delivery_id}", access{scope: scopeApp}, func(c *call) (int, any) {
		i := c.deliveryParam()
		if i < 0 {
			return notFound()
		}
		return http.StatusOK, c.f.deliveryJSON(i, true)
	})
	f.handle("POST /app/hook/deliveries/{delivery_id}/attempts", access{scope: scopeApp}, func(c *call) (int, any) {
		i := c.deliveryParam()
		if i < 0 {
			return notFound()
		}
		d := c.f.hooks.sent[i]
		d.Redelivery, d.Status, d.Err = true, 0, nil
		c.f.record1(d)
		return http.StatusAccepted, obj{}
	})
}

// deliveryParam is the index in the delivery log of the path's ID, or -1.
func (c *call) deliveryParam() int {
	id, _ := strconv.ParseInt(c.r.PathValue("delivery_id"), 10, 64)
	for i, d := range c.f.hooks.sent {
		if d.ID == id {
			return i
		}
	}
	return -1
}

func (f *Fake) deliveryJSON(i int, full bool) obj {
	d := f.hooks.sent[i]
	status := "OK"
	switch {
	case d.Err != nil:
		status = d.Err.Error()
	case d.Status == 0:
		status = "Pending"
	case d.Status >= 300:
		status = fmt.Sprintf("Invalid HTTP Response: %d", d.Status)
	}
	var repoID any
	if s := f.repo(d.Repo); s != nil {
		repoID = s.id
	}
	o := obj{
		"id": d.ID, "guid": d.GUID, "delivered_at": ts(d.At), "redelivery": d.Redelivery, "duration": d.Duration.Seconds(),
		"status": status, "status_code": d.Status, "event": d.Event, "action": nilIfEmpty(d.Action),
		"installation_id": nilIfZero(d.Installed), "repository_id": repoID, "throttled_at": nil,
	}
	if full {
		headers := obj{}
		for k, v := range d.Header {
			headers[k] = strings.Join(v, ", ")
		}
		o["url"] = f.hooks.url
		o["request"] = obj{"headers": headers, "payload": rawJSON(d.Payload)}
		o["response"] = obj{"headers": obj{}, "payload": nil}
	}
	return o
}

func nilIfZero(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// rawJSON keeps a payload as JSON when the delivery is encoded again.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
