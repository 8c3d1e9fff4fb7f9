package serve

import (
	"net/url"
	"strconv"
	"testing"

	"tallywood/engine"
)

// FuzzParseDecide: any body under either content type either fails with
// a message or gives a decision of a bounded, non-negative number and an
// option id of bounded length; JSON and form bodies give the same
// decision for the same fields.
func FuzzParseDecide(f *testing.F) {
	f.Add("application/json", []byte(`{"n":3,"option":"end/0/0/0","csrf":"x"}`))
	f.Add("application/x-www-form-urlencoded", []byte("n=3&option=end%2F0%2F0%2F0&csrf=x"))
	f.Add("application/json", []byte(`{"n":-1}`))
	f.Add("application/x-www-form-urlencoded", []byte("n=1&n=2"))
	f.Add("text/plain", []byte("n=1"))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		req, err := parseDecide(contentType, body)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if req.N < 0 || req.Option == "" || len(req.Option) > maxOptionID {
			t.Fatalf("accepted %+v", req)
		}
		if _, err := engine.ParseOptionID(req.Option); err == nil {
			form := url.Values{"n": {strconv.Itoa(req.N)}, "option": {req.Option}, "csrf": {req.CSRF}}
			again, err := parseDecide("application/x-www-form-urlencoded", []byte(form.Encode()))
			if err != nil || again != req {
				t.Fatalf("%+v as a form: %+v, %v", req, again, err)
			}
		}
	})
}

// FuzzParseHint: a hint request either fails with a message or gives its
// form token.
func FuzzParseHint(f *testing.F) {
	f.Add("application/json", []byte(`{"csrf":"x"}`))
	f.Add("application/x-www-form-urlencoded", []byte("csrf=x"))
	f.Add("application/json", []byte(`{"csrf":"x","n":1}`))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		if _, err := parseHint(contentType, body); err != nil && err.Error() == "" {
			t.Fatal("an error without a message")
		}
	})
}

// FuzzParsePlanForm: a plan's form either fails with a message or gives
// a plan whose every field is in bounds.
func FuzzParsePlanForm(f *testing.F) {
	f.Add("name=Week+1&rules=reference&mode=hard&seed=7&deals=3&politician=moderate&hint=on")
	f.Add("name=&rules=reference&mode=normal&seed=1&deals=0&politician=x")
	f.Add("name=a&name=b")
	f.Fuzz(func(t *testing.T, body string) {
		form, err := url.ParseQuery(body)
		if err != nil {
			return
		}
		p, err := parsePlanForm(form)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if p.Name == "" || len(p.Name) > maxPlanName || p.Deals < 1 || p.Deals > maxDeals || p.Politician == "" {
			t.Fatalf("accepted %+v", p)
		}
		if _, err := engine.ParseMode(p.Mode); err != nil {
			t.Fatalf("accepted mode %q", p.Mode)
		}
		if _, bad := engine.Hidden(p.Name); bad {
			t.Fatalf("accepted a hidden character in %q", p.Name)
		}
	})
}
