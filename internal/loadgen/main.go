// Command loadgen sends signed webhook deliveries to an aepgate serve on
// this machine at a fixed rate, open loop (a send never waits for the
// answer to the one before), each under a unique delivery ID, and prints
// the acknowledgement latency's p50, p90, p99 and maximum with the counts
// of 2xx answers, other statuses and errors:
//
//	go run ./internal/loadgen -url http://127.0.0.1:8080/webhook -secret S -rate 1000 -d 60s
//
// It refuses a URL that is not on the loopback interface, a rate above
// MaxRate and a duration above MaxDuration: it is a measuring tool, not a
// way to flood someone else's server.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// run parses args, sends the load and prints its report to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	fs.StringVar(&c.URL, "url", "http://127.0.0.1:8080/webhook", fmt.Sprintf("the webhook URL, or up to %d comma-separated ones the deliveries alternate between (loopback only)", MaxURLs))
	secret := fs.String("secret", "", "the webhook secret deliveries are signed with (HMAC-SHA256); required")
	fs.IntVar(&c.Rate, "rate", 100, fmt.Sprintf("deliveries per second (at most %d)", MaxRate))
	fs.DurationVar(&c.Duration, "d", 10*time.Second, fmt.Sprintf("how long to send (at most %v)", MaxDuration))
	fs.StringVar(&c.Event, "event", "pull_request", "the X-GitHub-Event header, and the fixture folder")
	action := fs.String("action", "opened", "the fixture's action: <fixtures>/<event>/<action>.payload.json")
	dir := fs.String("fixtures", "", "a folder of octokit webhook examples, <event>/<action>.payload.json (default: the repository's copy of @octokit/webhooks-examples, testdata/github)")
	payload := fs.String("payload", "", "a payload file to send instead of the fixture")
	fs.DurationVar(&c.Timeout, "timeout", 15*time.Second, "how long a delivery may wait for its answer (GitHub waits 10 s)")
	fs.BoolVar(&c.Same, "same-body", false, "send the payload unchanged every time (default: vary its first \"id\" so no two bodies are equal)")
	seconds := fs.Bool("seconds", false, "also print, for each second of the run, the p50, p99 and maximum latency of the deliveries due in it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *secret == "" {
		return fmt.Errorf("-secret is required")
	}
	c.Secret = []byte(*secret)
	body, from, err := payloadOf(*payload, *dir, c.Event, *action)
	if err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	c.Body = body
	fmt.Fprintf(stderr, "sending %s (%d bytes, %s) to %s at %d/s for %v\n", c.Event, len(body), from, c.URL, c.Rate, c.Duration)
	rep, err := Run(ctx, c)
	if err != nil {
		return err
	}
	rep.Print(stdout)
	if *seconds {
		rep.PrintSeconds(stdout)
	}
	return nil
}
