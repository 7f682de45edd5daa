package command

import "strings"

// Block is one fenced code block of a comment, outside quotes and lists.
type Block struct {
	// Line is the 1-based line of the opening fence.
	Line int
	// Text is the block's content, its lines joined with "\n" and the
	// fence's indentation removed.
	Text string
}

// FencedBlocks returns the fenced code blocks of body whose info string's
// first word is info (compared without case), in order. It sees fences as
// Parse sees lines: a fence in a block quote, a list item or inside a longer
// fence is not a block of the comment; an unclosed fence runs to the end.
func FencedBlocks(body, info string) []Block {
	info = strings.ToLower(info)
	var out []Block
	for _, f := range scan(body).fences {
		if f.info == info {
			out = append(out, Block{Line: f.open, Text: strings.Join(f.body, "\n")})
		}
	}
	return out
}
