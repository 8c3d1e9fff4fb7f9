package play

// ANSI styles. They are written only when Config.Color is set; the text
// without them is the same, so layout never depends on colour.
const (
	bold      = "1"
	dim       = "2"
	colourYou = "1;36" // bold cyan
	colourOpp = "1;35" // bold magenta
)

// districtColours are the ANSI colours of the Districts in canonical order.
var districtColours = [...]string{"31", "34", "32", "33"}

// paint wraps text in an ANSI style when colour is on.
func (s *Session) paint(style, text string) string {
	if !s.cfg.Color || style == "" || text == "" {
		return text
	}
	return "\x1b[" + style + "m" + text + "\x1b[0m"
}

// district paints a District name (or any text) in the District's colour.
func (s *Session) district(d int8, text string) string {
	if d < 0 || int(d) >= len(districtColours) {
		return text
	}
	return s.paint(districtColours[d], text)
}
