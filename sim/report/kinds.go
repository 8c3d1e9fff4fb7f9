package report

import (
	"bytes"
	"encoding/csv"
	"fmt"

	"tallywood/sim"
)

// A view is how one kind of study is shown: each kind's file registers
// its own (register, in its init), so no other file lists the kinds.
type view struct {
	// text writes the result as the --format table of its command.
	text func(b *bytes.Buffer, s sim.Study, opt TextOptions) error
	// wide says the text has a narrow form and a wide one
	// (TextOptions.Wide).
	wide bool
	// csv writes the result's rows; nil: the kind has no CSV form.
	csv func(w *csv.Writer, s sim.Study)
	// section is the result's part of the page, idx its place on it.
	section func(idx int, src Source) (section, error)
}

var views = map[sim.Kind]view{}

// A kindView is the view of a kind whose results are of type T, written
// with T's own functions; register makes it a view.
type kindView[T sim.Study] struct {
	text    func(b *bytes.Buffer, r T, opt TextOptions) error
	wide    bool
	csv     func(w *csv.Writer, r T) // nil: no CSV form
	section func(idx int, src Source, r T) (section, error)
}

// register registers the view of kind k, whose results are of type T.
func register[T sim.Study](k sim.Kind, v kindView[T]) {
	if _, dup := views[k]; dup {
		panic("report: kind " + string(k) + " registered twice")
	}
	out := view{
		text: func(b *bytes.Buffer, s sim.Study, opt TextOptions) error { return v.text(b, s.(T), opt) },
		wide: v.wide,
		section: func(idx int, src Source) (section, error) {
			return v.section(idx, src, src.Study.(T))
		},
	}
	if v.csv != nil {
		out.csv = func(w *csv.Writer, s sim.Study) { v.csv(w, s.(T)) }
	}
	views[k] = out
}

// viewOf is the view of s's kind.
func viewOf(name string, s sim.Study) (view, error) {
	if s == nil {
		return view{}, fmt.Errorf("report: %s: no result in the source", name)
	}
	v, ok := views[s.Head().Kind]
	if !ok {
		return view{}, fmt.Errorf("report: %s: no view of %s results", name, s.Head().Kind)
	}
	return v, nil
}

// HasCSV reports whether results of kind k have a CSV form.
func HasCSV(k sim.Kind) bool { return views[k].csv != nil }

// HasWide reports whether results of kind k have a wide text form
// (TextOptions.Wide) besides the narrow one.
func HasWide(k sim.Kind) bool { return views[k].wide }
