package boardweb

// boardCSS is the board page's whole style sheet: GitHub's Primer colours
// for the story states, a light page that prints well.
const boardCSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--link:#0969da}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;align-items:center;justify-content:space-between;gap:1em;padding:.8em 1.5em;background:#24292f;color:#fff}
header h1{font-size:1.25em;margin:0}
header .who button{margin-left:.5em}
main{max-width:1180px;margin:0 auto;padding:1em 1.5em 2em}
a{color:var(--link);text-decoration:none}
a:hover{text-decoration:underline}
h2{font-size:1.3em;margin:0 0 .4em}
h3{font-size:1.05em;margin:1.1em 0 .4em}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:1em 1.3em;margin:0 0 1.2em}
.notice{border-left:5px solid var(--link)}
.notice pre,code{background:var(--bg);border-radius:6px;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.notice pre{padding:.7em 1em;overflow:auto}
code{padding:.1em .35em}
.button,button{display:inline-block;padding:.35em .9em;border-radius:6px;border:1px solid rgba(31,35,40,.15);background:#1f883d;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.muted{color:var(--muted)}
.problem{color:#d1242f}
article.increment{border-top:1px solid var(--line);margin-top:1em}
table{border-collapse:collapse;width:100%;margin:.5em 0}
th,td{text-align:left;vertical-align:top;padding:.4em .6em;border-bottom:1px solid var(--line)}
th{font-size:.85em;color:var(--muted);font-weight:600}
.pill{display:inline-block;padding:0 .55em;border-radius:2em;font-size:.8em;font-weight:600;white-space:nowrap;border:1px solid transparent}
ul.inbox,ul.certs{padding-left:1.2em}
ul.inbox li{margin:.25em 0}
.kind{display:inline-block;min-width:3.5em;font-size:.8em;font-weight:700;text-transform:uppercase;color:#9a6700}
.h-suspect{color:#9a6700}.h-stalled{color:#d1242f;font-weight:600}
figure.graph{margin:.6em 0;overflow-x:auto}
svg.dag{max-width:100%;height:auto;font:12px -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
svg.dag .edge{fill:none;stroke:#8c959f;stroke-width:1.5}
svg.dag .arrow{fill:#8c959f}
svg.dag rect{stroke-width:1.5}
svg.dag text{fill:currentColor}
svg.dag .label{font-weight:700}
.stage{display:inline-block;padding:0 .55em;border-radius:6px;font-size:.8em;font-weight:700;text-transform:uppercase;border:1px solid var(--line)}
.st-building{color:#59636e}.st-integrating{color:#0550ae;border-color:#54aeff}.st-accepting{color:#9a6700;border-color:#d4a72c}
.st-complete{background:#1f883d;color:#fff;border-color:#1a7f37}
pre.fetch{background:var(--bg);border-radius:6px;padding:.6em 1em;overflow:auto;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.s-open{background:#f6f8fa;color:#59636e;border-color:#d1d9e0}
.s-progress{background:#ddf4ff;color:#0550ae;border-color:#54aeff}
.s-review{background:#fbefff;color:#6639ba;border-color:#c297ff}
.s-blocked{background:#ffebe9;color:#a40e26;border-color:#ff8182}
.s-held{background:#fff1e5;color:#953800;border-color:#fb8f44}
.s-merged{background:#dafbe1;color:#116329;border-color:#4ac26b}
.s-certified{background:#1f883d;color:#fff;border-color:#1a7f37}
svg.dag .s-open rect{fill:#f6f8fa;stroke:#d1d9e0}svg.dag .s-open{color:#59636e}
svg.dag .s-progress rect{fill:#ddf4ff;stroke:#54aeff}svg.dag .s-progress{color:#0550ae}
svg.dag .s-review rect{fill:#fbefff;stroke:#c297ff}svg.dag .s-review{color:#6639ba}
svg.dag .s-blocked rect{fill:#ffebe9;stroke:#ff8182}svg.dag .s-blocked{color:#a40e26}
svg.dag .s-held rect{fill:#fff1e5;stroke:#fb8f44}svg.dag .s-held{color:#953800}
svg.dag .s-merged rect{fill:#dafbe1;stroke:#4ac26b}svg.dag .s-merged{color:#116329}
svg.dag .s-certified rect{fill:#1f883d;stroke:#1a7f37}svg.dag .s-certified{color:#fff}
footer{text-align:center;color:var(--muted);font-size:.85em;padding:0 0 2em}
`
