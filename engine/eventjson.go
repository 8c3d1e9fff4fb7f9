package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonField is one key and value of an event's JSON object, in the order
// written.
type jsonField struct {
	key   string
	value any
}

// EventJSON writes an event as one JSON object, a line of `tallywood trace
// --format jsonl`: the fields its kind has, named, and values in words
// where the engine holds codes (Districts, actions, cards, trackers);
// docs/output.md lists every field.
func (r *Rules) EventJSON(e Event) []byte {
	f := []jsonField{{"round", int(e.Round) + 1}}
	if e.Turn != NoTurn {
		f = append(f, jsonField{"turn", int(e.Turn) + 1})
	}
	f = append(f, jsonField{"kind", e.Kind.String()})
	if e.Seat != NoSeat {
		f = append(f, jsonField{"seat", seatKey(e, e.Seat)})
	}
	region := func() { f = append(f, jsonField{"region", regionKey(r, e.District)}) }
	add := func(k string, v any) { f = append(f, jsonField{k, v}) }
	switch e.Kind {
	case EvRound:
		rd := r.Rounds[e.Round]
		add("turns", int(rd.Turns))
		add("hand_size", int(rd.HandSize))
	case EvPlayCard:
		add("card", r.Cards[e.Item].ID)
		add("column", int(e.Action)+1)
		add("row", rowKeys[e.Tier])
	case EvSoloCard:
		c := &r.Solo[e.Item]
		add("card", c.ID)
		add("column", int(e.Action)+1)
		add("districts", []string{r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict]})
		add("actions", []string{c.LeftAction.String(), c.RightAction.String()})
	case EvTracker:
		add("tracker", r.TrackerName(e.Action))
		add("from", int(e.From))
		add("to", int(e.To))
		if e.Item != 0 {
			add("change", int(e.Item))
		}
	case EvAssistant:
		add("column", int(e.Action)+1)
		region()
	case EvPublicWorks:
		region()
		add("tier", int(e.Tier))
		add("money", int(e.From))
	case EvCelebrity:
		region()
		add("tier", int(e.Tier))
		add("money", int(e.From))
		add("popularity", int(e.To))
	case EvFlip, EvReveal:
		region()
		if e.Item < 0 {
			add("tile", "Initial Support")
			add("value", int(e.To))
		} else {
			add("tile", e.Note)
		}
	case EvCampaign:
		region()
		add("popularity", int(e.From))
	case EvFundraise, EvToken, EvBadge:
		region()
	case EvDirectAppeal:
		add("cube", r.Districts[e.Item])
		region()
	case EvRally:
		add("strength", int(e.From))
	case EvAbility:
		region()
		add("card", r.Cards[e.Item].ID)
		add("ability", r.Cards[e.Item].Ability.String())
	case EvFavor:
		region()
		add("level", int(e.Tier))
		add("card", r.Cards[e.From].ID)
		add("icon", r.Cards[e.From].Slots[e.Item].String())
	case EvSpot:
		region()
		if e.Item >= 0 {
			add("spot", r.Spots[e.Item].String())
		}
	case EvEndorsement:
		region()
		add("level", int(e.Tier))
		if e.From > 0 {
			add("returned", int(e.From))
		}
	case EvCubeDraw:
		if e.Item >= 0 {
			add("cube", r.Districts[e.Item])
		}
	case EvCubeMove:
		add("cube", r.Districts[e.Item])
		add("from", regionKey(r, int8(e.From)))
		add("to", regionKey(r, int8(e.To)))
	case EvReward:
		region()
		add("reward", e.Note)
		add("amount", int(e.To))
		add("resource", rewardKeys[e.Item])
	case EvPlazaAdvance:
		add("amount", int(e.To))
	case EvDiscard:
		add("card", r.Cards[e.Item].ID)
	case EvDraw:
		add("card", r.Cards[e.Item].ID)
		add("deck", Action(e.Action).String())
	case EvReshuffle:
		if e.Action < 0 {
			add("deck", "Solo")
		} else {
			add("deck", Action(e.Action).String())
		}
	case EvSoloBox:
		add("cards", int(e.Item))
	case EvTally:
		region()
		add("votes", int(e.From))
		add("per_share", int(e.To))
	case EvSoloReveal:
		c := &r.Solo[e.Item]
		add("card", c.ID)
		add("depth", int(e.Action)+1)
		add("districts", []string{r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict]})
		add("actions", []string{c.LeftAction.String(), c.RightAction.String()})
	case EvSoloBottom:
		add("card", r.Solo[e.Item].ID)
	case EvVotes:
		add("votes", int(e.Item))
		add("from", int(e.From))
		add("to", int(e.To))
	case EvSeatTally:
		switch e.District {
		case PlayVotes:
			add("source", "votes gained in play")
		case -1:
			add("source", "Endorsements held")
		case Plaza:
			add("source", "resource bonus")
		default:
			add("source", "Vote Shares")
			region()
			add("shares", int(e.From))
		}
		add("votes", int(e.To))
	case EvResult:
		if e.Table {
			add("votes", int(e.From))
			add("place", int(e.To))
			add("shared_by", int(e.Item))
		} else {
			add("your_votes", int(e.From))
			add("opposition_votes", int(e.To))
		}
	case EvNote:
		if e.District >= 0 {
			region()
		}
	case EvInitiative:
		add("from", seatKey(e, int8(e.Item)))
		add("token", int(e.From))
		add("others_exchanged", e.To == 1)
	}
	if e.Rule != "" {
		add("rule", e.Rule)
	}
	if e.Kind == EvNote {
		add("note", e.Note)
	}
	add("text", r.Text(e))
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		v, _ := json.Marshal(kv.value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

var rowKeys = [NumRows]string{"top", "middle", "bottom"}

var rewardKeys = []string{"Money", "Popularity", "Polling", "Vote Share"}

// seatKey names a seat of e's game in an event's JSON: "you" and "opposition"
// in the solo game, "seat 1".."seat 4" at a table.
func seatKey(e Event, s int8) string {
	switch {
	case e.Table:
		return fmt.Sprintf("seat %d", s+1)
	case s == 0:
		return "you"
	}
	return "opposition"
}

// regionKey names a District, "Plaza" or "home" (an Assistant's column):
// RegionName without the narration's article.
func regionKey(r *Rules, d int8) string {
	if d == Plaza {
		return "Plaza"
	}
	return r.RegionName(d)
}
