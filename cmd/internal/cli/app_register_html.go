package cli

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"sync"

	"github.com/aepgate/aepgate/app/manifest"
)

// registerView is what app register's page shows: where the App is
// registered, its name and addresses, the permissions and events it asks
// for, and the manifest itself, compact for the form and indented to read.
type registerView struct {
	// Action is the form's target on GitHub; Manifest the compact JSON it
	// posts as the field "manifest"; Pretty the same JSON indented.
	Action, Manifest, Pretty string
	// Owner is who the App is registered for, Host the GitHub it is on.
	Owner, Host string
	// Name, Hook and Redirect are the manifest's name, webhook URL and
	// redirect URL.
	Name, Hook, Redirect string
	Permissions          []permissionView
	Events               []string
}

// permissionView is one permission the App asks for.
type permissionView struct {
	Title  string
	Key    manifest.Permission
	Access manifest.Access
}

// newRegisterView builds the page's view of m, posted to action on web
// (GitHub's web root) for org ("": the signed-in account).
func newRegisterView(m appManifest, action, web, org string) (registerView, error) {
	compact, err := json.Marshal(m)
	if err != nil {
		return registerView{}, fmt.Errorf("encode manifest: %w", err)
	}
	pretty, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return registerView{}, fmt.Errorf("encode manifest: %w", err)
	}
	v := registerView{Action: action, Manifest: string(compact), Pretty: string(pretty), Owner: "your account",
		Host: web, Name: m.Name, Hook: m.HookAttributes.URL, Redirect: m.RedirectURL, Events: m.DefaultEvents}
	if u, err := url.Parse(web); err == nil && u.Host != "" {
		v.Host = u.Host
	}
	if org != "" {
		v.Owner = "the organisation " + org
	}
	for _, p := range manifest.SortedPermissions(m.DefaultPermissions) {
		v.Permissions = append(v.Permissions, permissionView{Title: p.Title(), Key: p, Access: m.DefaultPermissions[p]})
	}
	return v, nil
}

// resultView is what the callback's page shows: its title and text,
// whether the App was registered, and where to install it (when it was).
type resultView struct {
	Title, Text, Link string
	OK                bool
}

// registerPage is the one-button page, compiled on first use.
var registerPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("register").Parse(registerHTML))
})

// resultPage is the page the callback answers with, compiled on first use.
var resultPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("result").Parse(resultHTML))
})

// pageCSS styles both pages; they load nothing else and run no script.
const pageCSS = `<style>
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;--line:#d1d9e0;--accent:#1f883d;--accent-hover:#1a7f37;--code:#eff2f5;--bad:#cf222e;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;--line:#3d444d;--accent:#238636;--accent-hover:#29903b;--code:#1f2630;--bad:#f85149;--warn:#d29922}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
main{max-width:46rem;margin:3rem auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:2rem 2.25rem;margin-bottom:1.25rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .5rem}
h2{font-size:1.05rem;margin:1.75rem 0 .6rem}
.card>h2:first-child{margin-top:0}
p{margin:.5rem 0}
.lead{color:var(--muted);margin-bottom:1.25rem}
.muted{color:var(--muted);font-size:.9rem}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
code{background:var(--code);border-radius:6px;padding:.1em .4em;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.45rem 1.25rem;margin:1rem 0}
dt{color:var(--muted)}
dd{margin:0;min-width:0}
button,a.button{display:inline-block;text-decoration:none;font:inherit;font-weight:600;color:#fff;background:var(--accent);border:1px solid rgba(31,35,40,.15);border-radius:8px;padding:.7rem 1.4rem;cursor:pointer}
button:hover,a.button:hover{background:var(--accent-hover)}
.actions{margin-top:1.25rem}
button:focus-visible,summary:focus-visible{outline:2px solid #0969da;outline-offset:2px}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
th{color:var(--muted);font-weight:600}
.access{font-weight:600}
.access-write{color:var(--warn)}
ul.events{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:0}
details{border:1px solid var(--line);border-radius:8px;margin-top:1.5rem}
summary{cursor:pointer;padding:.75rem 1rem;font-weight:600}
details pre{margin:0;padding:1rem;border-top:1px solid var(--line);background:var(--code);border-radius:0 0 8px 8px;max-height:32rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.status-ok h1{color:var(--accent)}
.status-bad h1{color:var(--bad)}
</style>`

const registerHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Register the aepgate App</title>
` + pageCSS + `
</head>
<body><main>
<section class="card">
<h1>Register the aepgate GitHub App</h1>
<p class="lead">The button sends the manifest below to GitHub ({{.Host}}), which asks you to confirm the App's name and registers it for {{.Owner}}. GitHub then sends you back here, and <code>aepgate app register</code> saves the App's private key and secrets.</p>
<dl>
<dt>Name</dt><dd>{{.Name}}</dd>
<dt>Owner</dt><dd>{{.Owner}} on {{.Host}}</dd>
<dt>Webhook URL</dt><dd><code>{{.Hook}}</code></dd>
<dt>Returns to</dt><dd><code>{{.Redirect}}</code></dd>
</dl>
<form method="post" action="{{.Action}}">
<input type="hidden" name="manifest" value="{{.Manifest}}">
<button id="register" type="submit">Register on GitHub</button>
</form>
</section>
<section class="card">
<h2>Permissions it asks for</h2>
<table id="permissions"><thead><tr><th>Permission</th><th>Key</th><th>Access</th></tr></thead><tbody>
{{range .Permissions}}<tr><td>{{.Title}}</td><td><code>{{.Key}}</code></td><td class="access access-{{.Access}}">{{.Access}}</td></tr>
{{end}}</tbody></table>
<h2>Events it subscribes to</h2>
<ul class="events" id="events">{{range .Events}}<li><code>{{.}}</code></li>{{end}}</ul>
<details id="manifest-details">
<summary>The manifest GitHub receives (JSON)</summary>
<pre id="manifest">{{.Pretty}}</pre>
</details>
</section>
<p class="muted">This page is served by <code>aepgate app register</code> on this machine only, and stops when the App is registered or the command ends.</p>
</main></body></html>
`

const resultHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}}</title>
` + pageCSS + `
</head>
<body><main>
<section class="card {{if .OK}}status-ok{{else}}status-bad{{end}}">
<h1 id="title">{{.Title}}</h1>
<p id="text">{{.Text}}</p>
{{if .Link}}<p class="actions"><a class="button" id="install" href="{{.Link}}">Install the App on GitHub</a></p>
<p><code>{{.Link}}</code></p>
{{end}}<p class="muted">{{if .OK}}The command has ended; you can close this page.{{else}}The command's output says what to do next.{{end}}</p>
</section>
</main></body></html>
`
