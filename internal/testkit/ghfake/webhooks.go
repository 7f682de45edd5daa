package ghfake

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// hookConfig says where webhook deliveries go; guarded by mu.
type hookConfig struct {
	on     bool
	url    string // "" collects without sending
	secret string
	app    *App // whose installation the payloads name; nil: any covering one
	sent   []Delivery
}

// Delivery is one webhook delivery the fake emitted.
type Delivery struct {
	Event     string      // X-GitHub-Event
	Action    string      // the payload's action ("" for push)
	GUID      string      // X-GitHub-Delivery
	Payload   []byte      // the raw JSON body
	Header    http.Header // every header GitHub sends, signature included
	Status    int         // the receiver's answer (0 when collected or failed)
	Err       error       // the transport error, if sending failed
	Repo      string      // "owner/name"
	Installed int64       // the installation ID in the payload, or 0
	ID        int64       // the delivery's ID in the App's delivery log
	At        time.Time   // when it was sent (or collected)
	// Redelivery marks a delivery resent through the delivery log; it keeps
	// the original GUID, as GitHub's redeliveries do.
	Redelivery bool
	Duration   time.Duration // how long the receiver took to answer
}

// delivery is a queued send: the log entry's index and where it goes.
type delivery struct {
	idx int
	url string
}

// SendWebhooks POSTs every delivery (signed with secret) to url as state
// changes; app, when non-nil, picks whose installation payloads name.
func (f *Fake) SendWebhooks(url, secret string, app *App) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hooks = hookConfig{on: true, url: url, secret: secret, app: app, sent: f.hooks.sent}
}

// CollectWebhooks records signed deliveries without sending them; read them
// with Deliveries and send them yourself (Delivery.Request).
func (f *Fake) CollectWebhooks(secret string, app *App) {
	f.SendWebhooks("", secret, app)
}

// Deliveries returns every delivery emitted so far, oldest first, once
// those still being sent have been answered.
func (f *Fake) Deliveries() []Delivery {
	f.sending.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Delivery(nil), f.hooks.sent...)
}

// Request builds the HTTP request GitHub would send for d to url.
func (d Delivery) Request(url string) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(d.Payload))
	if err != nil {
		return nil, fmt.Errorf("webhook request: %w", err)
	}
	for k, v := range d.Header {
		req.Header[k] = append([]string(nil), v...)
	}
	return req, nil
}

// Sign returns GitHub's X-Hub-Signature-256 value for body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func guid() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("ghfake: random GUID: %v", err))
	}
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// emit queues the delivery of event/action about s, sent by sender; the
// payload gets repository, sender and installation as GitHub adds them.
// Callers hold mu; the delivery leaves on the next flush.
func (f *Fake) emit(s *repoState, event, action string, sender *user, payload obj) {
	if !f.hooks.on {
		return
	}
	if action != "" {
		payload["action"] = action
	}
	if payload["repository"] == nil {
		payload["repository"] = f.repoJSON(s)
	}
	payload["sender"] = f.userJSON(sender)
	if s.owner.typ == "Organization" {
		payload["organization"] = f.orgJSON(s.owner)
	}
	var instID int64
	if in := f.hookInstallation(s); in != nil {
		instID = in.ID
		payload["installation"] = obj{"id": in.ID, "node_id": nodeID("Integration::Installation", in.ID)}
	}
	f.queue(event, action, payload, s.fullName, instID)
}

// queue signs and queues one delivery; callers hold mu.
func (f *Fake) queue(event, action string, payload obj, repo string, instID int64) {
	body, err := json.Marshal(payload)
	if err != nil {
		panic(fmt.Sprintf("ghfake: encode %s webhook: %v", event, err))
	}
	d := Delivery{Event: event, Action: action, GUID: guid(), Payload: body, Header: http.Header{}, Repo: repo, Installed: instID}
	d.Header.Set("Content-Type", "application/json")
	d.Header.Set("User-Agent", "GitHub-Hookshot/ghfake")
	d.Header.Set("X-GitHub-Event", event)
	d.Header.Set("X-GitHub-Delivery", d.GUID)
	d.Header.Set("X-GitHub-Hook-ID", "1")
	d.Header.Set("X-Hub-Signature-256", Sign(f.hooks.secret, body))
	if in := f.insts[instID]; in != nil {
		d.Header.Set("X-GitHub-Hook-Installation-Target-Type", "integration")
		d.Header.Set("X-GitHub-Hook-Installation-Target-ID", itoa(in.App.ID))
	}
	f.record1(d)
}

// record1 logs d (numbered, stamped) in order with the state change that
// caused it, and queues it for sending; callers hold mu.
func (f *Fake) record1(d Delivery) {
	d.ID, d.At = f.nextID(), f.clock()
	f.hooks.sent = append(f.hooks.sent, d)
	f.sending.Add(1)
	f.pending = append(f.pending, delivery{idx: len(f.hooks.sent) - 1, url: f.hooks.url})
}

// emitInstallation sends installation.<action> about in to its App.
func (f *Fake) emitInstallation(in *Installation, action string) {
	if !f.hooks.on || (f.hooks.app != nil && f.hooks.app != in.App) {
		return
	}
	repos := []any{}
	for _, s := range f.sortedRepos() {
		if in.covers(s) {
			repos = append(repos, obj{"id": s.id, "node_id": nodeID("Repository", s.id), "name": s.name,
				"full_name": s.fullName, "private": s.private})
		}
	}
	inst := f.installationJSON(in)
	inst["created_at"], inst["updated_at"] = in.created.Unix(), in.created.Unix() // Unix seconds in webhooks, as GitHub sends
	f.queue("installation", action, obj{"action": action, "installation": inst,
		"repositories": repos, "sender": f.userJSON(f.ensureUser(in.Account))}, "", in.ID)
}

// hookInstallation is the installation a delivery about s names.
func (f *Fake) hookInstallation(s *repoState) *Installation {
	for _, in := range f.sortedInstallations() {
		if in.covers(s) && (f.hooks.app == nil || in.App == f.hooks.app) {
			return in
		}
	}
	return nil
}

func (f *Fake) orgJSON(u *user) obj {
	api := f.root() + "/orgs/" + u.login
	return obj{
		"login": u.login, "id": u.id, "node_id": nodeID("Organization", u.id), "url": api,
		"repos_url": api + "/repos", "events_url": api + "/events", "hooks_url": api + "/hooks",
		"issues_url": api + "/issues", "members_url": api + "/members{/member}",
		"public_members_url": api + "/public_members{/member}", "description": nil,
		"avatar_url": "https://avatars.githubusercontent.com/u/" + itoa(u.id) + "?v=4",
	}
}

// flush sends queued deliveries outside the lock, in order, recording the
// receiver's status on each log entry.
func (f *Fake) flush() {
	f.mu.Lock()
	batch := f.pending
	f.pending = nil
	f.mu.Unlock()
	client := &http.Client{Timeout: 10 * time.Second}
	for _, p := range batch {
		if p.url == "" {
			f.sending.Done()
			continue
		}
		f.mu.Lock()
		d := f.hooks.sent[p.idx]
		f.mu.Unlock()
		start := time.Now()
		status, err := send(client, d, p.url)
		f.mu.Lock()
		e := &f.hooks.sent[p.idx]
		e.Status, e.Err, e.Duration = status, err, time.Since(start)
		f.mu.Unlock()
		f.sending.Done()
	}
}

func send(client *http.Client, d Delivery, url string) (int, error) {
	req, err := d.Request(url)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

func (f *Fake) emitRelease(s *repoState, rel *release, action string) {
	if !f.hooks.on {
		return
	}
	f.emit(s, "release", action, rel.author, obj{"release": f.releaseJSON(s, rel)})
}

// emitPublished sends release.published, then released or prereleased.
func (f *Fake) emitPublished(s *repoState, rel *release) {
	f.emitRelease(s, rel, "published")
	if rel.prerelease {
		f.emitRelease(s, rel, "prereleased")
	} else {
		f.emitRelease(s, rel, "released")
	}
}

func (f *Fake) emitCheckRun(s *repoState, run *checkRun, action string) {
	if !f.hooks.on {
		return
	}
	cr := f.checkRunJSON(s, run)
	cr["check_suite"] = f.suiteJSON(s, run.suite)
	f.emit(s, "check_run", action, f.ensureUser(run.app.Slug+"[bot]"), obj{"check_run": cr})
}

// runCompleted sends check_run.completed and, once every run of its suite
// has completed, check_suite.completed.
func (f *Fake) runCompleted(s *repoState, run *checkRun) {
	f.emitCheckRun(s, run, "completed")
	if status, _ := s.suiteStatus(run.suite); status == "completed" {
		f.emitCheckSuite(s, run.suite, "completed")
	}
}

func (f *Fake) emitCheckSuite(s *repoState, su *checkSuite, action string) {
	if !f.hooks.on {
		return
	}
	f.emit(s, "check_suite", action, f.ensureUser(s.owner.login), obj{"check_suite": f.suiteJSON(s, su)})
}

// pushed emits push (and create for a new ref) after a ref moved.
func (f *Fake) pushed(s *repoState, ref, before, after string, by *user) {
	if branch, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		f.synchronize(s, branch, before, after, by)
	}
	if !f.hooks.on {
		return
	}
	zero := "0000000000000000000000000000000000000000"
	if before == "" {
		before = zero
		if kind, name, ok := refKind(ref); ok {
			f.emit(s, "create", "", by, obj{"ref": name, "ref_type": kind, "master_branch": s.defaultBranch,
				"description": nil, "pusher_type": "user"})
		}
	}
	commits := []any{}
	if peeled := s.git.peel(after); s.git.commits[peeled] != nil {
		base := ""
		if before != zero {
			base = s.git.peel(before)
		}
		// A new ref lists only commits no other branch has, as GitHub does.
		known := map[string]bool{}
		if base == "" {
			for r, sha := range s.refs {
				if r != ref && strings.HasPrefix(r, "refs/heads/") {
					for a := range s.git.ancestors(sha) {
						known[a] = true
					}
				}
			}
		}
		for _, c := range s.git.between(base, peeled) {
			if !known[c.sha] {
				commits = append(commits, f.pushCommitJSON(s, c.sha))
			}
		}
	}
	repo := f.repoJSON(s)
	repo["master_branch"], repo["stargazers"] = s.defaultBranch, 0
	// Push payloads keep GitHub's legacy repository shape: Unix timestamps,
	// an owner with name and email, the organization's login.
	repo["created_at"], repo["pushed_at"] = s.created.Unix(), s.pushed.Unix()
	owner := f.userJSON(s.owner)
	owner["name"], owner["email"] = s.owner.login, nil
	if s.owner.typ == "Organization" {
		repo["organization"] = s.owner.login
	} else {
		owner["email"] = fmt.Sprintf("%d+%s@users.noreply.github.com", s.owner.id, s.owner.login)
	}
	repo["owner"] = owner
	f.emit(s, "push", "", by, obj{"repository": repo,
		"ref": ref, "before": before, "after": after, "created": before == zero, "deleted": false,
		"forced": false, "base_ref": nil, "compare": "https://github.com/" + s.fullName + "/compare/" + before[:12] + "..." + after[:12],
		"commits": commits, "head_commit": f.pushCommitJSON(s, s.git.peel(after)),
		"pusher": obj{"name": by.login, "email": fmt.Sprintf("%d+%s@users.noreply.github.com", by.id, by.login)},
	})
}

func refKind(ref string) (kind, name string, ok bool) {
	if n, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return "branch", n, true
	}
	if n, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		return "tag", n, true
	}
	return "", "", false
}

// pushCommitJSON is a commit as push payloads carry it: the short commit
// plus url, distinct, the authors' usernames and the paths added, removed
// and modified against the first parent.
func (f *Fake) pushCommitJSON(s *repoState, sha string) obj {
	c := s.git.commits[sha]
	if c == nil {
		return nil
	}
	o := f.headCommitJSON(s, sha)
	o["url"] = "https://github.com/" + s.fullName + "/commit/" + sha
	o["distinct"] = true
	o["author"], o["committer"] = pushPerson(c.author), pushPerson(c.committer)
	var parent map[string]string
	if len(c.parents) > 0 && s.git.commits[c.parents[0]] != nil {
		parent = s.git.commits[c.parents[0]].files
	}
	added, removed, modified := []string{}, []string{}, []string{}
	for p, blob := range c.files {
		switch old, ok := parent[p]; {
		case !ok:
			added = append(added, p)
		case old != blob:
			modified = append(modified, p)
		}
	}
	for p := range parent {
		if _, ok := c.files[p]; !ok {
			removed = append(removed, p)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	sort.Strings(modified)
	o["added"], o["removed"], o["modified"] = added, removed, modified
	return o
}

// pushPerson is a push commit's author or committer; username is the
// GitHub login the email belongs to, when GitHub would know it.
func pushPerson(sig Signature) obj {
	o := obj{"name": sig.Name, "email": sig.Email}
	switch {
	case sig.Email == webFlow.Email:
		o["username"] = "web-flow"
	case strings.HasSuffix(sig.Email, "@users.noreply.github.com"):
		local := strings.TrimSuffix(sig.Email, "@users.noreply.github.com")
		if _, login, ok := strings.Cut(local, "+"); ok {
			o["username"] = login
		} else {
			o["username"] = local
		}
	}
	return o
}

// inFlight counts the deliveries being sent. Unlike a sync.WaitGroup, Wait
// may run while a new delivery is queued (a test reads Deliveries while the
// App's writes emit more): it returns once none is in flight.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle *sync.Cond
}

// Add counts d more deliveries in flight.
func (s *inFlight) Add(d int) {
	s.mu.Lock()
	s.n += d
	s.mu.Unlock()
}

// Done counts one delivery answered.
func (s *inFlight) Done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n--
	if s.n == 0 && s.idle != nil {
		s.idle.Broadcast()
	}
}

// Wait returns once no delivery is in flight.
func (s *inFlight) Wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idle == nil {
		s.idle = sync.NewCond(&s.mu)
	}
	for s.n > 0 {
		s.idle.Wait()
	}
}
