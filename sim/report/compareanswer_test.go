package report

import (
	"bytes"
	"html"
	"regexp"
	"testing"
)

// TestCompareReadsAlone: a comparison's page and text, without the
// command line, say what changed, answer each cell in words, say why a
// cell was not played and how to read the intervals (the browser test
// reads the same page in Chromium).
func TestCompareReadsAlone(t *testing.T) {
	data := hardOnlyCompareJSON(t)
	tags := regexp.MustCompile(`<[^>]*>`)
	checkReadsAlone(t, html.UnescapeString(tags.ReplaceAllString(string(render(t, testMeta, data)), "")))
	src, err := Decode("compare.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"B differs from A in:\n  difficulties.hard.bonus_divisor: 2 → 3\n",
		"divisor 3 against reference at Hard for a casual player: the player's margin is 1.1 votes higher", "Not played: Normal, casual"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("the text does not say %q:\n%s", want, b.String())
		}
	}
}
