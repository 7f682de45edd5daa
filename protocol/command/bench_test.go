package command

import (
	"strings"
	"testing"
)

// benchBody is a long comment mixing prose, commands and every kind of
// block the scanner tells apart, HTML blocks of all seven kinds included.
var benchBody = strings.Repeat(strings.Join([]string{
	"Thanks for the update, looks good to me.",
	"/aep resolve g1 approve",
	"",
	"> quoted /aep resume",
	"",
	"```go",
	"/aep resume",
	"```",
	"- item",
	"  /aep resume",
	"",
	"| a | b |",
	"|---|---|",
	"| 1 | 2 |",
	"",
	"<!-- note",
	"/aep resume -->",
	"<details>",
	"/aep resume",
	"",
	"<pre>",
	"",
	"/aep resume",
	"</pre>",
	"<?php /aep resume ?>",
	"<!DOCTYPE html>",
	"<![CDATA[ x ]]>",
	"<span>",
	"/aep resume",
	"",
	"    indented /aep resume",
	"/aep status",
	"",
}, "\n"), 40)

// BenchmarkParse measures Parse on a long comment of every block kind.
func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		Parse(benchBody, "")
	}
}
