package config

import "strings"

// MarkdownTable renders Inputs as docs/inputs.md's table of inputs: name,
// default (as action.yml declares it) and description. Each row is the
// anchor of its input (docs/inputs.md#operations-per-run), as in actions/stale's
// README, so a link to an input lands on its row.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| Input | Default | Description |\n|---|---|---|\n")
	for _, in := range Inputs {
		b.WriteString("| " + Anchor(in.Name) + "`" + in.Name + "` | " + codeSpan(in.YAMLDefault()) + " | " + cell(in.Description) + " |\n")
	}
	return b.String()
}

// Anchor is the HTML anchor of an input's row: GitHub keeps an a element's
// name (prefixed user-content-) and scrolls to it for #name.
func Anchor(name string) string { return `<a name="` + name + `"></a>` }

// codeSpan renders s as inline code inside a table cell.
func codeSpan(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + cell(s) + pad + fence
}

// cell makes text safe inside a table cell: one line, pipes escaped.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
