package ghfake

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// hookRoutes serves the App's webhook delivery log (JWT), which an App
// uses to find and redeliver what it missed; GitHub keeps 3 days of it.
func (f *Fake) hookRoutes() {
	f.handle("GET /app/hook/deliveries", access{scope: scopeApp}, func(c *call) (int, any) {
		return c.deliveryPage()
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

// deliveryPage is one page of the delivery log, newest first, paged by
// cursor as GitHub pages it: per_page (default 30, at most 100), cursor
// (opaque; the Link header's next and first carry it) and status
// ("success": a status_code of 200–399, "failure": any other), a bad
// cursor or status being a 400.
func (c *call) deliveryPage() (int, any) {
	q := c.r.URL.Query()
	per, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || per <= 0 {
		per = DefaultPerPage
	}
	per = min(per, MaxPerPage)
	from := int64(-1) // no cursor: the newest
	if cur := q.Get("cursor"); cur != "" {
		n, err := strconv.ParseInt(strings.TrimPrefix(cur, "v1_"), 10, 64)
		if err != nil || !strings.HasPrefix(cur, "v1_") {
			return apiError(http.StatusBadRequest, "Invalid cursor")
		}
		from = n
	}
	status := q.Get("status")
	if status != "" && status != "success" && status != "failure" {
		return apiError(http.StatusBadRequest, "Invalid status: must be success or failure")
	}
	out, next := []any{}, int64(-1)
	for i := len(c.f.hooks.sent) - 1; i >= 0; i-- { // newest first
		d := c.f.hooks.sent[i]
		if (from >= 0 && d.ID > from) || (status != "" && (d.Status >= 200 && d.Status < 400) != (status == "success")) {
			continue
		}
		if len(out) == per {
			next = d.ID
			break
		}
		out = append(out, c.f.deliveryJSON(i, false))
	}
	c.cursorLinks(next)
	return http.StatusOK, out
}

// cursorLinks sets the Link header of a cursor-paged list: next when next
// is a delivery ID (else none), and first.
func (c *call) cursorLinks(next int64) {
	link := func(cursor, rel string) string {
		q := c.r.URL.Query()
		if cursor == "" {
			q.Del("cursor")
		} else {
			q.Set("cursor", cursor)
		}
		u := url.URL{Path: c.r.URL.Path, RawQuery: q.Encode()}
		return fmt.Sprintf("<%s%s>; rel=%q", c.f.root(), u.String(), rel)
	}
	parts := []string{}
	if next >= 0 {
		parts = append(parts, link("v1_"+strconv.FormatInt(next, 10), "next"))
	}
	parts = append(parts, link("", "first"))
	c.w.Header().Set("Link", strings.Join(parts, ", "))
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
