package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"tallywood/engine"
)

// A script sees the game in the words of the rules file: a District is its
// name ("Red"), an action its name ("Public Works"), a seat ME or YOU, a
// column its number 1–4 on the board. Solo cards and tiles are values of
// their own, with fields.

// Who names a seat to a script.
const (
	me  = starlark.String("opposition")
	you = starlark.String("you")
)

// world is what a script sees of one rule set, built once per rules, so
// that reading a District or a card allocates nothing.
type world struct {
	r         *engine.Rules
	districts starlark.Tuple
	actions   starlark.Tuple // the four actions' names, canonical order
	cards     []*soloCard
	// flipped[card][col] is flip()'s answer: the card and the column,
	// 1-based.
	flipped  [][engine.NumColumns]starlark.Tuple
	fallback starlark.Tuple // fallback_gain()
	// strings[c] are the slots the middle row of column c connects (C-11).
	strings [engine.NumColumns]*slots
}

func newWorld(r *engine.Rules) *world {
	w := &world{r: r}
	for _, d := range r.Districts {
		w.districts = append(w.districts, starlark.String(d))
	}
	for a := range engine.NumActions {
		w.actions = append(w.actions, starlark.String(engine.Action(a).String()))
	}
	for i := range r.Solo {
		w.cards = append(w.cards, &soloCard{w: w, i: i})
	}
	w.flipped = make([][engine.NumColumns]starlark.Tuple, len(r.Solo))
	for i := range r.Solo {
		for c := range engine.NumColumns {
			w.flipped[i][c] = starlark.Tuple{w.cards[i], starlark.MakeInt(c + 1)}
		}
	}
	w.fallback = starlark.Tuple{starlark.MakeInt(int(r.FallbackMoney)), starlark.MakeInt(int(r.FallbackPop))}
	for c := range int8(engine.NumColumns) {
		w.strings[c] = &slots{col: c, mask: r.ConnectedSlots(c, middleRow)}
	}
	return w
}

// middleRow is the row every Solo card goes into (Solo Gameplay 1).
const middleRow = 1

// district reads a District's name.
func (w *world) district(v starlark.Value) (int8, error) {
	if s, ok := v.(starlark.String); ok {
		for i, d := range w.districts {
			if d.(starlark.String) == s {
				return int8(i), nil
			}
		}
		return 0, fmt.Errorf("%q is not a District (%s)", s, w.districtList())
	}
	return 0, fmt.Errorf("a District is its name (%s), not a %s", w.districtList(), v.Type())
}

func (w *world) districtList() string {
	out := ""
	for i, d := range w.districts {
		if i > 0 {
			out += ", "
		}
		out += string(d.(starlark.String))
	}
	return out
}

// region reads a District's name, "Plaza" or "home" (an Assistant's
// region), and names one back.
func (w *world) region(v starlark.Value) (int8, error) {
	switch v {
	case starlark.String("Plaza"):
		return engine.Plaza, nil
	case starlark.String("home"):
		return engine.Home, nil
	}
	d, err := w.district(v)
	if err != nil {
		return 0, fmt.Errorf("%v, \"Plaza\" or \"home\"", err)
	}
	return d, nil
}

func (w *world) regionName(d int8) starlark.Value {
	switch {
	case d == engine.Plaza:
		return starlark.String("Plaza")
	case d >= 0 && d < engine.NumDistricts:
		return w.districts[d]
	}
	return starlark.String("home")
}

// action reads an action's name.
func (w *world) action(v starlark.Value) (engine.Action, error) {
	if s, ok := v.(starlark.String); ok {
		for i, a := range w.actions {
			if a.(starlark.String) == s {
				return engine.Action(i), nil
			}
		}
	}
	return 0, fmt.Errorf("%s is not an action (Public Works, Celebrity, Research or Campaign)", v)
}

// column reads a column's number, 1–4.
func column(v starlark.Value) (int8, error) {
	n, err := starlark.AsInt32(v)
	if err != nil || n < 1 || n > engine.NumColumns {
		return 0, fmt.Errorf("a column is 1 to %d, not %s", engine.NumColumns, v)
	}
	return int8(n - 1), nil
}

// soloCard is a Solo card (C-16): id, left_district, right_district,
// left_action, right_action. One value per card of the rules, so that two
// reads of a card are the same value.
type soloCard struct {
	w *world
	i int
}

var _ starlark.HasAttrs = (*soloCard)(nil)

func (c *soloCard) String() string        { return "<Solo card " + c.w.r.Solo[c.i].ID + ">" }
func (c *soloCard) Type() string          { return "solo_card" }
func (c *soloCard) Freeze()               {}
func (c *soloCard) Truth() starlark.Bool  { return true }
func (c *soloCard) Hash() (uint32, error) { return uint32(c.i), nil }

func (c *soloCard) Attr(name string) (starlark.Value, error) {
	sc := &c.w.r.Solo[c.i]
	switch name {
	case "id":
		return starlark.String(sc.ID), nil
	case "left_district":
		return c.w.districts[sc.LeftDistrict], nil
	case "right_district":
		return c.w.districts[sc.RightDistrict], nil
	case "left_action":
		return c.w.actions[sc.LeftAction], nil
	case "right_action":
		return c.w.actions[sc.RightAction], nil
	}
	return nil, nil
}

func (c *soloCard) AttrNames() []string {
	return []string{"id", "left_action", "left_district", "right_action", "right_district"}
}

// tile is a Celebrity or Public Works tile on the board: kind, tier,
// district, badge (ME, YOU or None), face_up, and, face up only, face.
type tile struct {
	w  *world
	i  int // index into Game.Placed: placement order
	t  engine.PlacedTile
	by starlark.Value
}

var (
	_ starlark.HasAttrs   = (*tile)(nil)
	_ starlark.Comparable = (*tile)(nil)
)

// tileKinds are the kinds' names as values, made once.
var tileKinds = [2]starlark.Value{starlark.String(engine.TileCelebrity.String()), starlark.String(engine.TilePublicWorks.String())}

func (t *tile) String() string {
	return fmt.Sprintf("<%s tier %d in %s, placed %s>", t.t.Kind, t.t.Tier, t.w.r.Districts[t.t.District], engine.Ordinal(t.i+1))
}
func (t *tile) Type() string          { return "tile" }
func (t *tile) Freeze()               {}
func (t *tile) Truth() starlark.Bool  { return true }
func (t *tile) Hash() (uint32, error) { return uint32(t.i), nil }

// CompareSameType compares tiles by placement: two reads of one tile are
// equal, and the earlier placed is the lesser (I-21's "placed earliest").
func (t *tile) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return threeway(op, t.i-y.(*tile).i), nil
}

func threeway(op syntax.Token, cmp int) bool {
	switch op {
	case syntax.EQL:
		return cmp == 0
	case syntax.NEQ:
		return cmp != 0
	case syntax.LT:
		return cmp < 0
	case syntax.LE:
		return cmp <= 0
	case syntax.GT:
		return cmp > 0
	}
	return cmp >= 0
}

func (t *tile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "kind":
		return tileKinds[t.t.Kind], nil
	case "tier":
		return starlark.MakeInt(int(t.t.Tier)), nil
	case "district":
		return t.w.districts[t.t.District], nil
	case "badge":
		return t.by, nil
	case "face_up":
		return starlark.Bool(t.t.FaceUp), nil
	case "face":
		if !t.t.FaceUp {
			return nil, fmt.Errorf("the face of a face-down tile is hidden (face_up is False)")
		}
		return starlark.String(t.w.r.Tiles[t.t.Kind][t.t.Tier-1][t.t.Face].String()), nil
	}
	return nil, nil
}

func (t *tile) AttrNames() []string {
	return []string{"badge", "district", "face", "face_up", "kind", "tier"}
}

// slots are the slots of a Solo card that the strings of a column's middle
// row connect (C-11): TL, BL, TR and BR, each True or False.
type slots struct {
	col  int8
	mask uint8
}

var _ starlark.HasAttrs = (*slots)(nil)

func (s *slots) String() string {
	var on []string
	for i := range engine.NumSlots {
		if s.mask&(1<<i) != 0 {
			on = append(on, engine.SlotName(i))
		}
	}
	return fmt.Sprintf("<strings of column %d: %s>", s.col+1, strings.Join(on, ", "))
}
func (s *slots) Type() string          { return "strings" }
func (s *slots) Freeze()               {}
func (s *slots) Truth() starlark.Bool  { return true }
func (s *slots) Hash() (uint32, error) { return uint32(s.col), nil }

func (s *slots) Attr(name string) (starlark.Value, error) {
	for i := range engine.NumSlots {
		if engine.SlotName(i) == name {
			return starlark.Bool(s.mask&(1<<i) != 0), nil
		}
	}
	return nil, nil
}

func (s *slots) AttrNames() []string { return []string{"BL", "BR", "TL", "TR"} }
