package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// CSV writes src's result as CSV: a row per cell of a sim result, per cell
// and point of a sweep (the base first, unless a point is the base), per row of a study of several
// players. A partial (interrupted) result ends with a row saying so: a
// person sees it, and a reader that wants every row to have the header's
// fields (Go's encoding/csv, pandas) stops there, rather than take a
// partial file for a whole one. Comparisons have no CSV form.
func CSV(w io.Writer, src Source) error {
	v, err := viewOf(src.Name, src.Study)
	if err != nil {
		return err
	}
	if v.csv == nil {
		return fmt.Errorf("report: %s: a %s result has no CSV form (its text, JSON or HTML has it all)", src.Name, src.Study.Head().Kind)
	}
	cw := csv.NewWriter(w)
	v.csv(cw, src.Study)
	if src.Interrupted() {
		cw.Write([]string{"# partial result: the run was interrupted after " + src.Played()})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %v", err)
	}
	return nil
}

// csvFloat writes a number exactly (the shortest form that reads back the
// same float64).
func csvFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func csvInt(x int64) string { return strconv.FormatInt(x, 10) }
