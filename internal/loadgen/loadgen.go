package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// Bounds of one run.
const (
	// MaxRate caps the deliveries sent per second.
	MaxRate = 5000
	// MaxDuration caps how long one run sends.
	MaxDuration = 10 * time.Minute
	// MaxURLs caps the URLs one run alternates between.
	MaxURLs = 8
)

// Config is one run of the load generator.
type Config struct {
	// URL is where deliveries go, or several comma-separated URLs (at most
	// MaxURLs) that the deliveries alternate between (the i-th goes to the
	// (i mod n)-th), e.g. replicas of serve on one database; each host must
	// be a loopback address or "localhost".
	URL string
	// Secret signs each body (X-Hub-Signature-256).
	Secret []byte
	// Event is the X-GitHub-Event header; Body the payload.
	Event string
	Body  []byte
	// Rate is deliveries per second, Duration how long they are sent.
	Rate     int
	Duration time.Duration
	// Timeout bounds one delivery's wait for its answer.
	Timeout time.Duration
	// Same sends Body unchanged; otherwise each body's first "id" value is
	// replaced by a number unique to the run.
	Same bool
}

// urls are the URLs of c.URL.
func (c Config) urls() []string { return strings.Split(c.URL, ",") }

// check refuses a non-loopback URL, too many URLs and a rate or duration
// out of bounds.
func (c Config) check() error {
	urls := c.urls()
	if len(urls) > MaxURLs {
		return fmt.Errorf("%d urls: at most %d", len(urls), MaxURLs)
	}
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			return err
		}
	}
	switch {
	case c.Rate < 1 || c.Rate > MaxRate:
		return fmt.Errorf("rate %d: want 1 to %d per second", c.Rate, MaxRate)
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return fmt.Errorf("duration %v: want more than 0 and at most %v", c.Duration, MaxDuration)
	case len(c.Secret) == 0:
		return errors.New("a secret is required")
	case c.Event == "" || len(c.Body) == 0:
		return errors.New("an event and a payload are required")
	}
	return nil
}

// checkURL refuses a URL that is not http(s) on a loopback host.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q: want http://127.0.0.1:PORT/webhook", raw)
	}
	if h := u.Hostname(); h != "localhost" {
		if ip := net.ParseIP(h); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("url %q: only a loopback address (127.0.0.0/8, ::1, localhost) is allowed", raw)
		}
	}
	return nil
}

// fixturePath is the octokit example of event and action in dir.
func fixturePath(dir, event, action string) string {
	return filepath.Join(dir, event, action+".payload.json")
}

// payloadOf is the body to send and where it came from: the file path, or
// else the octokit example of event and action in dir, or else (dir "")
// the first one GitHub recorded in the repository's fixtures.
func payloadOf(path, dir, event, action string) ([]byte, string, error) {
	if path == "" && dir != "" {
		path = fixturePath(dir, event, action)
	}
	if path != "" {
		body, err := os.ReadFile(path)
		return body, path, err
	}
	ws, err := fixtures.LoadWebhooks()
	if err != nil {
		return nil, "", err
	}
	for _, w := range ws {
		if w.Event == event && w.Action == action {
			return w.Body, w.Name, nil
		}
	}
	return nil, "", fmt.Errorf("no recorded %s %q payload in the fixtures (-event, -action)", event, action)
}

// Run sends c.Rate·c.Duration deliveries, the i-th at start + i/Rate
// whatever the answers to earlier ones (open loop), and waits for every
// answer. A delivery's latency runs from when it was due to be sent to
// its answer, so a sender that fell behind shows as latency.
func Run(ctx context.Context, c Config) (*Report, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if c.Timeout <= 0 {
		c.Timeout = 15 * time.Second
	}
	client := &http.Client{Timeout: c.Timeout, Transport: &http.Transport{
		MaxIdleConns: 4096, MaxIdleConnsPerHost: 4096, IdleConnTimeout: 30 * time.Second,
	}}
	defer client.CloseIdleConnections()
	bodies := newBodies(c.Body, c.Same, time.Now().UnixNano()%maxRuns)
	urls := c.urls()
	n := int(int64(c.Rate) * int64(c.Duration) / int64(time.Second))
	rep := newReport(n)
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		due := start.Add(time.Duration(int64(i) * int64(time.Second) / int64(c.Rate)))
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				wg.Wait()
				return rep.done(time.Since(start)), ctx.Err()
			}
		}
		wg.Go(func() {
			status, err := send(client, urls[i%len(urls)], c, fmt.Sprintf("loadgen-%s-%d", run, i), bodies.at(i))
			rep.add(due.Sub(start), status, err, time.Since(due))
		})
	}
	wg.Wait()
	return rep.done(time.Since(start)), nil
}

// send posts one signed delivery to url and returns its status.
func send(client *http.Client, url string, c Config, id string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	m := hmac.New(sha256.New, c.Secret)
	m.Write(body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "GitHub-Hookshot/aepgate-loadgen")
	req.Header.Set("X-GitHub-Event", c.Event)
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// bodies makes the i-th body: the payload with its first "id" value
// replaced by a value unique to i and to the run, so that no two bodies
// are equal, in one run or across runs (the App answers a body it
// accepted in the last 24 h under another delivery ID as a replay and
// queues nothing: a second run sending the first one's bodies would
// measure that lighter path).
type bodies struct {
	head, tail []byte
	id         int64
	same       bool
}

// maxRuns is how many runs' bodies stay apart: run r's i-th body has the
// id base + (1+r)·10⁹ + i, and no run sends 10⁹ deliveries (MaxRate ·
// MaxDuration is 3 million).
const maxRuns = 1_000_000

var firstID = regexp.MustCompile(`"id":\s*(\d+)`)

// newBodies makes run's bodies from body (the same one each time when
// same, or when body has no "id").
func newBodies(body []byte, same bool, run int64) bodies {
	loc := firstID.FindSubmatchIndex(body)
	if same || loc == nil {
		return bodies{head: body, same: true}
	}
	id, _ := strconv.ParseInt(string(body[loc[2]:loc[3]]), 10, 64)
	return bodies{head: body[:loc[2]], tail: body[loc[3]:], id: id + (1+run)*1_000_000_000}
}

func (b bodies) at(i int) []byte {
	if b.same {
		return b.head
	}
	out := make([]byte, 0, len(b.head)+len(b.tail)+20)
	out = append(out, b.head...)
	out = strconv.AppendInt(out, b.id+int64(i), 10)
	return append(out, b.tail...)
}
