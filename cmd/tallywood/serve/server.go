package serve

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"tallywood/engine"
	"tallywood/sim"
)

// Config is what `tallywood serve` wires: the store, the rules files the
// designer may start plans under (besides the reference set), and the
// calibration's budget.
type Config struct {
	Store *Store
	// Rules are the rules a plan may use, by the name the designer knows
	// them by (a file's base name); the reference set is always there.
	Rules map[string]*engine.Rules
	// Fit is the dashboard's calibration as calibrate's flags set it
	// (skills, levels, games a point, seed); the server fills in the
	// rules and the records. Games 0: no fit.
	Fit sim.CalibrateConfig
	// Log receives one line per refused request and per failure; nil
	// discards them.
	Log *log.Logger
	// Rate is the requests a second one token may make, Burst how many
	// at once.
	Rate  float64
	Burst int
}

// Server holds every game: the browser gets the player's view only.
type Server struct {
	cfg      Config
	store    *Store
	designer string // the designer's token
	secret   []byte // keys the CSRF tokens
	games    *liveGames
	limits   *limiter
	fit      *fitter
	testers  sync.Map // token → Tester, once found: a tester is never changed nor removed
	mux      *http.ServeMux
	log      *log.Logger
	ctx      context.Context
	stop     context.CancelFunc
	closing  sync.Once
}

// Settings keys of the store.
const (
	settingDesigner = "designer_token"
	settingSecret   = "csrf_secret"
)

// New opens the server on cfg's store: the designer's token and the CSRF
// key are made once and kept in the store, so links live across restarts.
// A store without a plan gets the default one (reference rules, Normal).
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("serve: no store")
	}
	if cfg.Rate <= 0 {
		cfg.Rate, cfg.Burst = 20, 40
	}
	designer, err := cfg.Store.EnsureSetting(settingDesigner, newToken)
	if err != nil {
		return nil, err
	}
	secret, err := cfg.Store.EnsureSetting(settingSecret, newToken)
	if err != nil {
		return nil, err
	}
	logger := cfg.Log
	if logger == nil {
		logger = log.New(discard{}, "", 0)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, store: cfg.Store, designer: designer, secret: []byte(secret),
		limits: newLimiter(cfg.Rate, cfg.Burst), log: logger, ctx: ctx, stop: stop}
	s.games = newLiveGames(s)
	if err := s.defaultPlan(); err != nil {
		return nil, err
	}
	s.fit = newFitter(s)
	s.routes()
	return s, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Close stops the background fit.
func (s *Server) Close() {
	s.closing.Do(func() {
		s.stop()
		s.fit.wait()
	})
}

// DesignerToken is the token of the dashboard's link.
func (s *Server) DesignerToken() string { return s.designer }

// tokenBytes is the entropy of a token: 256 bits.
const tokenBytes = 32

// tokenLen is a token's length in base64url without padding.
var tokenLen = base64.RawURLEncoding.EncodedLen(tokenBytes)

// newToken makes an unguessable token.
func newToken() string {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// wellFormed reports whether t has a token's shape, before any lookup.
func wellFormed(t string) bool {
	if len(t) != tokenLen {
		return false
	}
	for _, c := range []byte(t) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// csrfFor is the CSRF token of the pages of token: a keyed hash, so the
// server keeps no session and a page of one link is no use to another.
func (s *Server) csrfFor(token string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("csrf/" + token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkCSRF checks a change's CSRF token (form field or header) and that
// the browser says it comes from this site.
func (s *Server) checkCSRF(r *http.Request, token, sent string) error {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return errors.New("the request came from another site")
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" && !sameHost(o, r.Host) {
		return errors.New("the request came from another site")
	}
	if sent == "" {
		sent = r.Header.Get("X-CSRF-Token")
	}
	want := s.csrfFor(token)
	if subtle.ConstantTimeCompare([]byte(sent), []byte(want)) != 1 {
		return errors.New("the page's form token is missing or wrong: reload the page")
	}
	return nil
}

// sameHost reports whether origin (scheme://host[:port]) names host.
func sameHost(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}

// isDesigner compares a token with the designer's in constant time.
func (s *Server) isDesigner(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(s.designer)) == 1
}

// tester finds the tester of token, comparing in constant time.
func (s *Server) tester(token string) (Tester, bool, error) {
	if !wellFormed(token) {
		return Tester{}, false, nil
	}
	if v, ok := s.testers.Load(token); ok {
		t := v.(Tester)
		return t, subtle.ConstantTimeCompare([]byte(t.Token), []byte(token)) == 1, nil
	}
	t, ok, err := s.store.TesterByToken(token)
	if err != nil || !ok {
		return Tester{}, false, err
	}
	if subtle.ConstantTimeCompare([]byte(t.Token), []byte(token)) != 1 {
		return Tester{}, false, nil
	}
	s.testers.Store(token, t)
	return t, true, nil
}

// Bounds of a request.
const (
	maxBody      = 16 << 10 // a decision, a hint, an invitation, a plan
	maxHeader    = 16 << 10
	maxTesterLen = 64
	maxPlanName  = 80
	maxDeals     = 100
)

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// HTTPServer wraps the handler with the timeouts and header bound a
// server facing a LAN needs.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    maxHeader,
	}
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", staticHandler()))
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, http.StatusNotFound, "There is no such page: open the link you were given.")
	})
	m.HandleFunc("GET /t/{token}", s.testerOnly(s.testerHome))
	m.HandleFunc("POST /t/{token}/deals/{deal}", s.testerOnly(s.startGame))
	m.HandleFunc("GET /t/{token}/games/{game}", s.testerOnly(s.gamePage))
	m.HandleFunc("POST /t/{token}/games/{game}/decide", s.testerOnly(s.decide))
	m.HandleFunc("POST /t/{token}/games/{game}/hint", s.testerOnly(s.hint))
	m.HandleFunc("GET /d/{token}", s.designerOnly(s.dashboard))
	m.HandleFunc("POST /d/{token}/plans", s.designerOnly(s.addPlan))
	m.HandleFunc("POST /d/{token}/testers", s.designerOnly(s.addTester))
	m.HandleFunc("GET /d/{token}/export/decisions.jsonl", s.designerOnly(s.exportDecisions))
	m.HandleFunc("GET /d/{token}/export/outcomes.csv", s.designerOnly(s.exportOutcomes))
	m.HandleFunc("GET /d/{token}/export/saves.zip", s.designerOnly(s.exportSaves))
	m.HandleFunc("GET /d/{token}/export/games/{game}", s.designerOnly(s.exportSave))
	s.mux = http.NewServeMux()
	s.mux.Handle("/", s.guard(m))
}

// guard sets every answer's security headers, bounds the body and refuses
// what no route takes with a page, not Go's plain text.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if r.ContentLength > maxBody {
			s.refuse(w, r, http.StatusRequestEntityTooLarge, "The request is larger than %d bytes.", maxBody)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		next.ServeHTTP(w, r)
	})
}

// refuse answers a refused request: JSON to the page's script, a page
// to a browser, and a line in the log.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Printf("%s %s: %d %s", r.Method, redact(r.URL.Path), status, msg)
	if wantsJSON(r) {
		writeJSON(w, status, map[string]any{"error": msg})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	render(w, "error", errorPage{Status: status, Title: http.StatusText(status), Message: msg})
}

// redact cuts tokens out of a path for the log.
func redact(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if len(p) == tokenLen {
			parts[i] = "…"
		}
	}
	return strings.Join(parts, "/")
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json") ||
		strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")
}

// testerOnly runs h for the tester whose token the path holds, within the
// token's rate; anything else is refused.
func (s *Server) testerOnly(h func(http.ResponseWriter, *http.Request, Tester)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token := r.PathValue("token")
		t, ok, err := s.tester(token)
		if err != nil {
			s.failed(w, r, err)
			return
		}
		if !ok {
			s.refuseToken(w, r)
			return
		}
		if !s.limits.allow(token) {
			s.refuse(w, r, http.StatusTooManyRequests, "Too many requests: wait a moment and try again.")
			return
		}
		h(w, r, t)
	}
}

// designerOnly runs h for the designer's token.
func (s *Server) designerOnly(h func(http.ResponseWriter, *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token := r.PathValue("token")
		if !wellFormed(token) || !s.isDesigner(token) {
			s.refuseToken(w, r)
			return
		}
		if !s.limits.allow(token) {
			s.refuse(w, r, http.StatusTooManyRequests, "Too many requests: wait a moment and try again.")
			return
		}
		h(w, r)
	}
}

// refuseToken refuses a link whose token is not one the store gave, and
// slows the next guesses from the same address.
func (s *Server) refuseToken(w http.ResponseWriter, r *http.Request) {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	if !s.limits.allow("bad-token/" + host) {
		s.refuse(w, r, http.StatusTooManyRequests, "Too many requests with links that are not valid.")
		return
	}
	s.refuse(w, r, http.StatusForbidden, "This link is not valid: ask the designer of the playtest for yours.")
}

// failed answers an error of the server itself.
func (s *Server) failed(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Printf("%s %s: %v", r.Method, redact(r.URL.Path), err)
	msg := "The server could not do that just now; nothing was changed. Try again."
	if wantsJSON(r) {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": msg})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	render(w, "error", errorPage{Status: http.StatusServiceUnavailable, Title: "Try again", Message: msg})
}

// pathInt reads an integer path value in 0..max.
func pathInt(r *http.Request, name string, max int64) (int64, bool) {
	v, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return v, err == nil && v >= 0 && v <= max
}

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	render(w, "home", nil)
}
