package boardweb

import (
	"html/template"
	"strings"
	"sync"
)

// boardFuncs are the page template's helpers.
var boardFuncs = template.FuncMap{
	"link": htmlLink,
	"when": htmlTime,
	"join": func(s []string) string { return strings.Join(s, " · ") },
}

// htmlLink is text as a link to url, or text alone when url is not an
// http(s) address; both are escaped.
func htmlLink(text, url string) template.HTML {
	t := template.HTMLEscapeString(text)
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return template.HTML(t)
	}
	return template.HTML(`<a href="` + template.HTMLEscapeString(url) + `">` + t + `</a>`)
}

// boardPageTemplate is the board page, parsed on first use (not at every
// start of the binary). Its CSS is inline and it loads
// nothing: the page works offline and under a Content-Security-Policy of
// default-src 'none'; style-src 'unsafe-inline'; img-src 'self'.
var boardPageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("board").Funcs(boardFuncs).Parse(boardPageText))
})

// boardPageText is the board page template's source.
const boardPageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + boardCSS + `</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
{{- if .Login}}
<form method="post" action="{{.LogoutPath}}" class="who">Signed in as <b>{{.Login}}</b> <button type="submit">Sign out</button></form>
{{- end}}
</header>
<main>
{{- with .Notice}}
<section class="notice">
<h2>{{.Heading}}</h2>
{{- range .Lines}}
<p>{{.}}</p>
{{- end}}
{{- if .Code}}
<pre>{{.Code}}</pre>
{{- end}}
{{- if .LinkURL}}
<p><a class="button" href="{{.LinkURL}}">{{.LinkText}}</a></p>
{{- end}}
</section>
{{- end}}
{{- range .Repos}}
<section class="repo" id="{{.Anchor}}">
<h2>{{link .Name .URL}}</h2>
{{- if .Empty}}
<p class="muted">{{.Empty}}</p>
{{- else}}
{{- template "inbox" .}}
{{- with .Graph}}
<figure class="graph">{{.}}</figure>
{{- end}}
{{- range .Increments}}{{template "increment" .}}{{end}}
{{- if .Kept}}{{template "certificates" .}}{{end}}
{{- end}}
</section>
{{- end}}
</main>
{{- if .Generated}}
<footer>Made {{.Generated}} by aepgate.</footer>
{{- end}}
</body>
</html>
{{define "inbox"}}{{if .Kept}}
<h3>Waits for you</h3>
{{- if .Inbox}}
<ul class="inbox">
{{- range .Inbox}}
<li class="k-{{.Kind}}"><span class="kind">{{.Kind}}</span> {{link .Subject .URL}}: {{.Question}}
{{- if .Choices}} <span class="muted">choices: {{join .Choices}}</span>{{end}}
{{- if .Reply}} <code>{{.Reply}}</code>{{end}}
{{- with when .Since}} <span class="muted">since {{.}}</span>{{end}}</li>
{{- end}}
</ul>
{{- else}}
<p class="muted">Nothing waits for you.</p>
{{- end}}{{end}}{{end}}
{{define "increment"}}
<article class="increment">
<h3>{{link .Title .URL}} <span class="muted">{{.Meta}}</span>
{{- with .Stage}} <span class="stage st-{{.}}">{{.}}</span>{{end}}{{with .Tier}} <span class="muted">{{.}} risk</span>{{end}}
{{- range .Counts}} <span class="pill {{.Class}}">{{.N}} {{.State}}</span>{{end}}</h3>
{{- range .Problems}}
<p class="problem">{{.}}</p>
{{- end}}
{{- if .Waiting}}
<p class="muted">Missing:</p>
<ul class="missing">
{{- range .Waiting}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- with .AcceptCommand}}
<p>The owner accepts with <code>{{.}}</code> in a new comment on the control issue.</p>
{{- end}}
{{- with .Certificate}}
<p class="cert">Increment certificate {{link (printf "sha256:%.12s" .SHA256) .URL}} on <code>{{printf "%.12s" .Integrated}}</code>. Read it back and validate it:</p>
<pre class="fetch">{{.Fetch}}</pre>
{{- end}}
{{- with .Graph}}
<figure class="graph">{{.}}</figure>
{{- end}}
{{- if .Stories}}
<table>
<thead><tr><th>{{if .Local}}item{{else}}story{{end}}</th><th>state</th>{{if not .Local}}<th>attempts</th>{{end}}</tr></thead>
<tbody>
{{- range .Stories}}
<tr><td>{{link .Ref .URL}} {{.Title}}{{with .Detail}}<br><span class="muted">{{.}}</span>{{end}}</td>
<td><span class="pill {{.Class}}">{{.State}}</span>{{with .Reason}}<br><span class="muted">{{.}}</span>{{end}}</td>
{{- if not $.Local}}
<td>{{range .Attempts}}<div>{{link (printf "#%d" .PR) .URL}} {{if .Merged}}merged{{else if .Open}}open{{else}}closed{{end}}
{{- with .Health}} <span class="h-{{.}}">{{.}}</span>{{end}}{{with .OverLimit}} <span class="problem">over {{.}}</span>{{end}}</div>{{end}}</td>
{{- end}}</tr>
{{- end}}
</tbody>
</table>
{{- end}}
</article>
{{- end}}
{{define "certificates"}}
<h3>Recently certified</h3>
{{- if .Certificates}}
<ul class="certs">
{{- range .Certificates}}
<li>{{link (printf "#%d" .Unit) .URL}} by PR #{{.PR}} at <code>{{printf "%.12s" .SHA}}</code>{{with when .At}} <span class="muted">{{.}}</span>{{end}}</li>
{{- end}}
</ul>
{{- else}}
<p class="muted">No certificate yet.</p>
{{- end}}{{end}}
`

// boardGraphTemplate draws a laid-out dependency graph as inline SVG (parsed
// on first use).
var boardGraphTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("graph").Parse(`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="dependency graph" class="dag" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
<defs><marker id="{{.ID}}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z" class="arrow"/></marker></defs>
{{- $id := .ID}}
{{- range .Edges}}
<path class="edge" d="{{.}}" marker-end="url(#{{$id}}-arrow)"/>
{{- end}}
{{- range .Nodes}}
{{if .URL}}<a href="{{.URL}}">{{end}}<g class="node {{.Class}}"><title>{{.Full}}</title><rect x="{{.X}}" y="{{.Y}}" width="200" height="46" rx="7"/><text x="{{.X}}" y="{{.Y}}" dx="10" dy="18" class="label">{{.Label}} · {{.State}}</text><text x="{{.X}}" y="{{.Y}}" dx="10" dy="36">{{.Title}}</text></g>{{if .URL}}</a>{{end}}
{{- end}}
</svg>`))
})
