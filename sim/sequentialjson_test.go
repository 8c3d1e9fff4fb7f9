package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSequentialResultJSON: a test's statistic and decision are typed
// values in a result and words in its JSON, the same words the JSON held
// when they were strings (docs/output.md: on, decision); a word that is
// none of them is refused, naming it.
func TestSequentialResultJSON(t *testing.T) {
	for _, tt := range []struct {
		on       Statistic
		decision Decision
		json     string
	}{
		{OnScore, Undecided, `{"on":"score","decision":"undecided"}`},
		{OnScore, Easier, `{"on":"score","decision":"easier"}`},
		{OnMargin, Harder, `{"on":"margin","decision":"harder"}`},
		{OnScore, Within, `{"on":"score","decision":"within"}`},
		{OnMargin, NearerP0, `{"on":"margin","decision":"p0"}`},
		{OnScore, NearerP1, `{"on":"score","decision":"p1"}`},
	} {
		type pair struct {
			On       Statistic `json:"on"`
			Decision Decision  `json:"decision"`
		}
		b, err := json.Marshal(pair{tt.on, tt.decision})
		if err != nil || string(b) != tt.json {
			t.Errorf("%v, %v: got %s, %v; want %s", tt.on, tt.decision, b, err, tt.json)
		}
		var back pair
		if err := json.Unmarshal([]byte(tt.json), &back); err != nil || back.On != tt.on || back.Decision != tt.decision {
			t.Errorf("%s read back as %+v, %v", tt.json, back, err)
		}
	}
	var r SequentialResult
	for _, tt := range []struct{ json, want string }{
		{`{"on":"votes"}`, `sequential test on "votes": not score or margin`},
		{`{"decision":"maybe"}`, `sequential decision "maybe": not easier, harder, within, p0, p1 or undecided`},
		{`{"decision":"Easier"}`, `sequential decision "Easier"`},
	} {
		if err := json.Unmarshal([]byte(tt.json), &r); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %s", tt.json, err, tt.want)
		}
	}
}
