package twofold

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The documentation tests. TestMarkdownLinks checks that every relative link
// and anchor in the repository's Markdown files resolves, as GitHub resolves
// them; TestArchitectureNamesEveryPackage checks that docs/architecture.md
// names every package of the module. Both run from the repository root, the
// directory of this package.

// architectureDoc is the page that must name every package.
const architectureDoc = "docs/architecture.md"

// TestMarkdownLinks: every relative link and image in every Markdown file
// points at a file or directory of the repository, and every #anchor at a
// heading (or an explicit HTML anchor) of its target Markdown file.
// External links (http, https, mailto) are not followed.
func TestMarkdownLinks(t *testing.T) {
	files, err := markdownFiles(".")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no Markdown files found")
	require.Contains(t, files, "README.md")

	problems := checkLinks(".", files)
	if len(problems) > 0 {
		t.Errorf("%d broken link(s) in the Markdown files (a target must exist relative to the file that links to it; "+
			"an #anchor must be the GitHub slug of a heading in the target: lowercase, punctuation other than - and _ "+
			"removed, spaces turned into -, a repeated heading gets -1, -2):\n  %s",
			len(problems), strings.Join(problems, "\n  "))
	}
}

// TestArchitectureNamesEveryPackage: docs/architecture.md names every package
// "go list ./..." prints, as a code span of its path relative to the module
// (`nnue/data`); the root package is `.` or "twofold (root)".
func TestArchitectureNamesEveryPackage(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH, so the packages cannot be listed")
	}
	doc, err := os.ReadFile(filepath.FromSlash(architectureDoc))
	require.NoError(t, err, "%s must exist", architectureDoc)

	module, err := exec.Command(goBin, "list", "-m").Output()
	require.NoError(t, err, "go list -m")
	out, err := exec.Command(goBin, "list", "-e", "./...").Output()
	require.NoError(t, err, "go list -e ./...")
	pkgs := relativePackages(strings.TrimSpace(string(module)), strings.Fields(string(out)))
	require.NotEmpty(t, pkgs)

	missing := missingPackages(string(doc), pkgs)
	if len(missing) > 0 {
		t.Errorf("%s does not name %d of the %d packages go list ./... prints; add a line for each, its path "+
			"relative to the module in backticks (the root package as `.` or \"twofold (root)\"):\n  %s",
			architectureDoc, len(missing), len(pkgs), strings.Join(missing, "\n  "))
	}
}

// relativePackages turns import paths into paths relative to the module:
// the module itself becomes ".".
func relativePackages(module string, importPaths []string) []string {
	var rel []string
	for _, p := range importPaths {
		switch {
		case p == module:
			rel = append(rel, ".")
		case strings.HasPrefix(p, module+"/"):
			rel = append(rel, strings.TrimPrefix(p, module+"/"))
		default:
			rel = append(rel, p)
		}
	}
	sort.Strings(rel)
	return rel
}

// missingPackages returns the packages the document does not name as a code
// span (`azero/loop`); the root "." may also be written "twofold (root)".
func missingPackages(doc string, pkgs []string) []string {
	spans := map[string]bool{}
	for _, s := range codeSpanRe.FindAllStringSubmatch(doc, -1) {
		spans[strings.TrimSpace(s[1])] = true
	}
	var missing []string
	for _, p := range pkgs {
		if spans[p] || (p == "." && strings.Contains(doc, "twofold (root)")) {
			continue
		}
		missing = append(missing, p)
	}
	return missing
}

var codeSpanRe = regexp.MustCompile("`([^`\n]+)`")

// markdownFiles lists the repository's Markdown files, slash-separated and
// relative to root: the files git tracks or would track (untracked files
// that are not ignored), or, without git, every *.md under root outside
// hidden and build directories. Files under a testdata directory are
// fixtures and are left out.
func markdownFiles(root string) ([]string, error) {
	var files []string
	if gitBin, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command(gitBin, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md")
		cmd.Dir = root
		if out, err := cmd.Output(); err == nil {
			for _, f := range strings.Split(string(out), "\x00") {
				if f == "" {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
					continue // deleted in the working tree
				}
				files = append(files, f)
			}
			return filterFixtures(files), nil
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "bin" || name == "dist" || name == "lib" || name == "runs" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	return filterFixtures(files), err
}

func filterFixtures(files []string) []string {
	var kept []string
	for _, f := range files {
		if strings.HasPrefix(f, "testdata/") || strings.Contains(f, "/testdata/") {
			continue
		}
		kept = append(kept, f)
	}
	sort.Strings(kept)
	return kept
}

// checkLinks checks every link of the given Markdown files (slash paths
// relative to root) and returns one line per broken link.
func checkLinks(root string, files []string) []string {
	var problems []string
	anchorCache := map[string]map[string]bool{}
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := anchorCache[file]; ok {
			return a, nil
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		a := anchors(string(src))
		anchorCache[file] = a
		return a, nil
	}
	for _, file := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		for _, l := range extractLinks(string(src)) {
			if msg := checkLink(root, file, l.target, anchorsOf); msg != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: (%s) %s", file, l.line, l.target, msg))
			}
		}
	}
	return problems
}

// checkLink resolves one link target of file; it returns "" when the target
// resolves, or why it does not.
func checkLink(root, file, target string, anchorsOf func(string) (map[string]bool, error)) string {
	if isExternal(target) {
		return ""
	}
	if scheme := schemeRe.FindString(target); scheme != "" {
		return fmt.Sprintf("link scheme %q is neither a relative path nor http(s) or mailto", scheme)
	}
	rawPath, fragment, _ := strings.Cut(target, "#")
	if i := strings.IndexByte(rawPath, '?'); i >= 0 {
		rawPath = rawPath[:i]
	}
	p, err := url.PathUnescape(rawPath)
	if err != nil {
		return fmt.Sprintf("bad escape in path: %v", err)
	}
	frag, err := url.PathUnescape(fragment)
	if err != nil {
		return fmt.Sprintf("bad escape in anchor: %v", err)
	}

	// The file the link points at, relative to root.
	resolved := file
	if p != "" {
		if strings.HasPrefix(p, "/") {
			resolved = path.Clean(strings.TrimPrefix(p, "/"))
		} else {
			resolved = path.Join(path.Dir(file), p)
		}
		if resolved == ".." || strings.HasPrefix(resolved, "../") {
			return "points outside the repository"
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(resolved)))
		if err != nil {
			return fmt.Sprintf("%s does not exist", resolved)
		}
		if info.IsDir() {
			if fragment != "" {
				return fmt.Sprintf("an anchor on a directory (%s)", resolved)
			}
			return ""
		}
	}
	if fragment == "" {
		return ""
	}
	if !strings.HasSuffix(resolved, ".md") {
		if lineAnchorRe.MatchString(frag) {
			return "" // GitHub's line anchors of a source file
		}
		return fmt.Sprintf("anchor #%s on %s, which is not Markdown", frag, resolved)
	}
	a, err := anchorsOf(resolved)
	if err != nil {
		return err.Error()
	}
	if !a[frag] {
		return fmt.Sprintf("%s has no heading with the anchor #%s%s", resolved, frag, nearest(frag, a))
	}
	return ""
}

var (
	schemeRe     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	lineAnchorRe = regexp.MustCompile(`^L[0-9]+(-L[0-9]+)?$`)
)

func isExternal(target string) bool {
	lower := strings.ToLower(target)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") ||
		strings.HasPrefix(lower, "mailto:") || strings.HasPrefix(lower, "//")
}

// nearest suggests the anchors of the target that share the first word of
// the one asked for, to make a broken anchor quick to fix.
func nearest(frag string, a map[string]bool) string {
	first, _, _ := strings.Cut(frag, "-")
	var near []string
	for k := range a {
		if strings.HasPrefix(k, first) {
			near = append(near, "#"+k)
		}
	}
	if len(near) == 0 {
		return ""
	}
	sort.Strings(near)
	if len(near) > 5 {
		near = near[:5]
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}

// link is one link target found in a Markdown file, with its line number.
type link struct {
	target string
	line   int
}

var (
	fenceRe = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	// An inline link or image: [text](target "title"); the text may hold
	// one level of brackets and span lines, the target may be <bracketed>.
	inlineLinkRe = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)`)
	// A link reference definition: [label]: target.
	refDefRe = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:[ \t]*(<[^<>\n]*>|\S+)`)
	// HTML links and images.
	htmlAttrRe    = regexp.MustCompile(`(?i)<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']`)
	htmlCommentRe = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// extractLinks returns the link targets of a Markdown document: inline links
// and images, reference definitions and HTML href/src attributes, outside
// fenced code blocks, code spans and HTML comments.
func extractLinks(src string) []link {
	var links []link
	for _, block := range proseBlocks(src) {
		text := stripCodeSpans(block.text)
		add := func(target string, offset int) {
			target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
			if target == "" {
				return
			}
			links = append(links, link{target: target, line: block.line + strings.Count(text[:offset], "\n")})
		}
		for _, m := range inlineLinkRe.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[0])
		}
		for _, m := range refDefRe.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[0])
		}
		for _, m := range htmlAttrRe.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[0])
		}
	}
	return links
}

// block is a run of prose lines (a paragraph, a list, a table) between blank
// lines and fenced code blocks, with the line number of its first line.
type block struct {
	text string
	line int
}

// proseBlocks splits a document into blocks of prose, leaving out fenced
// code blocks and HTML comments (their lines are kept blank, so line numbers
// stay right).
func proseBlocks(src string) []block {
	src = htmlCommentRe.ReplaceAllStringFunc(src, func(c string) string {
		return strings.Repeat("\n", strings.Count(c, "\n"))
	})
	var blocks []block
	var cur []string
	start := 0
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, block{text: strings.Join(cur, "\n"), line: start})
			cur = nil
		}
	}
	fence := ""
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence != "" {
			if m := fenceRe.FindStringSubmatch(line); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) &&
				strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), m[1][:1])) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			flush()
			fence = m[1]
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if len(cur) == 0 {
			start = n
		}
		cur = append(cur, line)
	}
	flush()
	return blocks
}

// stripCodeSpans blanks the contents of code spans (runs of backticks), keeping
// the text's length and line breaks; a backtick run without a closing run of
// the same length is literal.
func stripCodeSpans(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] == '`' {
			j++
		}
		n := j - i
		// Find a closing run of exactly n backticks.
		closeAt := -1
		for k := j; k < len(b); {
			if b[k] != '`' {
				k++
				continue
			}
			m := k
			for m < len(b) && b[m] == '`' {
				m++
			}
			if m-k == n {
				closeAt = k
				break
			}
			k = m
		}
		if closeAt < 0 {
			i = j
			continue
		}
		for k := i; k < closeAt+n; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
		i = closeAt + n
	}
	return string(b)
}

var (
	atxHeadingRe    = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextUnderRe   = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`)
	htmlAnchorRe    = regexp.MustCompile(`(?i)<[a-z][a-z0-9]*\b[^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']`)
	inlineLinkTxtRe = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)`)
	htmlTagRe       = regexp.MustCompile(`<[^>]+>`)
	emphasisUndRe   = regexp.MustCompile(`(^|[^\p{L}\p{N}])_+|_+([^\p{L}\p{N}]|$)`)
	slugDropRe      = regexp.MustCompile(`[^\p{L}\p{M}\p{N}\p{Pc} -]`)
)

// anchors returns every anchor a Markdown document defines: the GitHub slug
// of each heading (ATX and setext, outside fenced code), numbered as GitHub
// numbers repeated ones, and explicit HTML id or name attributes.
func anchors(src string) map[string]bool {
	a := map[string]bool{}
	s := newSlugger()
	fence := ""
	prev := "" // the previous line, if it could be a setext heading's text
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if fence != "" {
			if m := fenceRe.FindStringSubmatch(line); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) {
				fence = ""
			}
			prev = ""
			continue
		}
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			fence = m[1]
			prev = ""
			continue
		}
		for _, m := range htmlAnchorRe.FindAllStringSubmatch(line, -1) {
			a[m[1]] = true
		}
		if m := atxHeadingRe.FindStringSubmatch(line); m != nil {
			a[s.slug(m[1])] = true
			prev = ""
			continue
		}
		if prev != "" && setextUnderRe.MatchString(line) {
			a[s.slug(prev)] = true
			prev = ""
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "|") || strings.HasPrefix(trimmed, ">") ||
			strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "* ") || strings.HasPrefix(trimmed, "<") {
			prev = ""
		} else {
			prev = trimmed
		}
	}
	return a
}

// slugger gives headings GitHub's anchors: the slug of the heading's text,
// and for a slug already given, the slug with -1, -2, ... appended (as
// github-slugger does).
type slugger struct{ seen map[string]int }

func newSlugger() *slugger { return &slugger{seen: map[string]int{}} }

func (s *slugger) slug(heading string) string {
	base := slugify(heading)
	result := base
	for {
		if _, taken := s.seen[result]; !taken {
			break
		}
		s.seen[base]++
		result = fmt.Sprintf("%s-%d", base, s.seen[base])
	}
	s.seen[result] = 0
	return result
}

// slugify is GitHub's anchor for a heading's Markdown text: the rendered
// text (links reduced to their text, HTML tags, code-span backticks and
// emphasis marks dropped), lowercased, every character other than a letter,
// a mark, a digit, an underscore, a space or a hyphen removed, and each
// space turned into a hyphen.
func slugify(heading string) string {
	text := inlineLinkTxtRe.ReplaceAllString(heading, "$1")
	text = htmlTagRe.ReplaceAllString(text, "")
	text = strings.ReplaceAll(text, "`", "")
	text = strings.ReplaceAll(text, "*", "")
	text = emphasisUndRe.ReplaceAllString(text, "$1$2")
	text = strings.ToLower(strings.TrimSpace(text))
	text = slugDropRe.ReplaceAllString(text, "")
	return strings.ReplaceAll(text, " ", "-")
}

// Unit tests of the pieces above.

func TestSlugify(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Twofold", "twofold"},
		{"Play in the browser", "play-in-the-browser"},
		{"UCI_Elo calibration", "uci_elo-calibration"},
		{"NNUE data and training (`engine datagen`, `nnue/train`)", "nnue-data-and-training-engine-datagen-nnuetrain"},
		{"The MCTS searcher (`azero`)", "the-mcts-searcher-azero"},
		{"What's new? (2.0)", "whats-new-20"},
		{"Against chess-3 at 8+0.08", "against-chess-3-at-8008"},
		{"C++ & Go", "c--go"},
		{"Hello  World", "hello--world"},
		{"--flag", "--flag"},
		{"**Bold** and _emphasis_", "bold-and-emphasis"},
		{"snake_case_name stays", "snake_case_name-stays"},
		{"[Docs](docs/play.md) page", "docs-page"},
		{"<code>engine</code> bench", "engine-bench"},
		{"αβ search, MCTS × ONNX", "αβ-search-mcts--onnx"},
		{"Élan Ünïcode", "élan-ünïcode"},
		{"  padded  ", "padded"},
		{"", ""},
	} {
		assert.Equal(t, tc.want, slugify(tc.heading), "slugify(%q)", tc.heading)
	}
}

func TestSluggerNumbersRepeatedHeadings(t *testing.T) {
	s := newSlugger()
	var got []string
	for _, h := range []string{"Tests", "Tests", "Tests-1", "Tests", "Other"} {
		got = append(got, s.slug(h))
	}
	assert.Equal(t, []string{"tests", "tests-1", "tests-1-1", "tests-2", "other"}, got)
}

func TestAnchors(t *testing.T) {
	src := strings.Join([]string{
		"# Title",
		"## Limits",
		"### Limits",
		"```sh",
		"# not a heading",
		"```",
		"Setext heading",
		"--------------",
		"",
		"Another one",
		"===",
		"",
		"| a | b |",
		"| --- | --- |",
		`<a name="explicit"></a> and <span id="by-id">`,
		"#### Closed heading ##",
	}, "\n")
	got := anchors(src)
	for _, want := range []string{"title", "limits", "limits-1", "setext-heading", "another-one", "explicit", "by-id", "closed-heading"} {
		assert.True(t, got[want], "anchor %q missing from %v", want, got)
	}
	assert.False(t, got["not-a-heading"], "a heading inside a code block")
	assert.False(t, got["-a--b-"], "a table row is no heading")
}

func TestExtractLinks(t *testing.T) {
	src := strings.Join([]string{
		"See [the play page](docs/play.md#the-api) and ![shot](docs/play-phone.png \"title\").",
		"A link over [two",
		"lines](docs/zero.md) and one with <brackets>: [x](<docs/a b.md>).",
		"`[not a link](nowhere.md)` and ``[nor](this.md)``",
		"```",
		"[in code](code.md)",
		"```",
		"<!-- [commented](gone.md) -->",
		`<img src="docs/play-desktop.png" alt="board"> <a href="CHANGELOG.md">log</a>`,
		"[ref]: docs/strength.md#gauntlets",
		"[paren](docs/x_(y).md) https://example.com/bare",
	}, "\n")
	var got []string
	for _, l := range extractLinks(src) {
		got = append(got, fmt.Sprintf("%d %s", l.line, l.target))
	}
	assert.ElementsMatch(t, []string{
		"1 docs/play.md#the-api",
		"1 docs/play-phone.png",
		"2 docs/zero.md",
		"3 docs/a b.md",
		"9 docs/play-desktop.png",
		"9 CHANGELOG.md",
		"10 docs/strength.md#gauntlets",
		"11 docs/x_(y).md",
	}, got)
}

// TestCheckLinksFindsBrokenOnes runs the checker over a small tree with one
// link of each kind, good and broken.
func TestCheckLinksFindsBrokenOnes(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("README.md", strings.Join([]string{
		"# Top",
		"## Usage",
		"[ok](docs/guide.md) [ok anchor](docs/guide.md#the-api) [ok self](#usage) [ok dir](docs)",
		"[ok image](docs/pic.png) [ok web](https://example.com/x#y) [ok mail](mailto:a@example.com)",
		"[ok line](src/main.go#L10-L12) [ok root](/docs/guide.md#more)",
		"[missing file](docs/nope.md) [missing anchor](docs/guide.md#nope) [bad self](#nope)",
		"[outside](../elsewhere.md) [ftp](ftp://example.com/f) [anchor on code](src/main.go#main)",
	}, "\n"))
	write("docs/guide.md", "# Guide\n\n## The API\n\n## More\n\n[back](../README.md#top)\n")
	write("docs/pic.png", "png")
	write("src/main.go", "package main\n")

	files, err := markdownFiles(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"README.md", "docs/guide.md"}, files)

	problems := checkLinks(root, files)
	require.Len(t, problems, 6, "problems: %s", strings.Join(problems, "\n"))
	joined := strings.Join(problems, "\n")
	for _, want := range []string{
		"README.md:6: (docs/nope.md) docs/nope.md does not exist",
		"README.md:6: (docs/guide.md#nope) docs/guide.md has no heading with the anchor #nope",
		"README.md:6: (#nope) README.md has no heading with the anchor #nope",
		"README.md:7: (../elsewhere.md) points outside the repository",
		`README.md:7: (ftp://example.com/f) link scheme "ftp:"`,
		"README.md:7: (src/main.go#main) anchor #main on src/main.go, which is not Markdown",
	} {
		assert.Contains(t, joined, want)
	}
}

func TestMissingPackages(t *testing.T) {
	pkgs := relativePackages("example.com/m", []string{"example.com/m", "example.com/m/a", "example.com/m/a/b", "example.com/m/c"})
	assert.Equal(t, []string{".", "a", "a/b", "c"}, pkgs)
	assert.Equal(t, []string{"a/b", "c"}, missingPackages("twofold (root); `a` and a/b and `cc`", pkgs))
	assert.Empty(t, missingPackages("`.` `a` `a/b` `c`", pkgs))
}

// TestMarkdownFilesWithoutGitRepository: outside a git repository the files
// are found by walking the tree, fixtures under testdata left out.
func TestMarkdownFilesWithoutGitRepository(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "x", "testdata"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "x", "a.md"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "x", "testdata", "b.md"), nil, 0o644))
	files, err := markdownFiles(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"x/a.md"}, files)
}
