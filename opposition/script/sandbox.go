package script

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The bounds of one call of a hook (turn(), clean_up()...). Starlark counts
// its own steps; it does not count memory, and some operations take more
// than a step's work in one step ("x" * 10**8, [0] * n, s.replace("",
// big), "".join(...)). So every operation whose cost grows with its
// operands is routed, when the script is compiled, through a helper that
// works out its size first and charges it to the call: the binary
// operators + * % | << in, slices, *args and **kwargs, the builtins that
// build a value from another (list, tuple, dict, set, sorted, reversed,
// enumerate, zip, str, repr, print) and the methods that build strings,
// lists and dicts. Work is charged as steps, bytes against the memory
// bound, and no single value may pass maxValueLen. Equality and ordering
// comparisons are not charged: they are bounded by the sizes of values,
// which these bounds bound.
const (
	// maxSteps is the steps of one hook call: the reference script's
	// turn takes about 150.
	maxSteps = 1_000_000
	// maxMemory is the bytes one hook call may build.
	maxMemory = 32 << 20
	// maxValueLen bounds the elements of one list, tuple, dict or set and
	// the bytes of one string.
	maxValueLen = 1 << 20
	// maxIntBits bounds an integer's size.
	maxIntBits = 4096
)

// BoundError is a script that went past one of its bounds.
type BoundError struct{ Why string }

func (e *BoundError) Error() string { return e.Why }

var errMemory = &BoundError{fmt.Sprintf("the script built more than %d MiB in one call (a list or string growing without end?)", maxMemory>>20)}

// charge counts n bytes built and work steps done by the call on thread.
func charge(thread *starlark.Thread, n, work int) error {
	c := callOf(thread)
	c.mem += n
	if c.mem > maxMemory {
		return errMemory
	}
	thread.Steps += uint64(work)
	return nil
}

// valueLen is the number of elements (bytes of a string) of v, or -1 when
// it has no length.
func valueLen(v starlark.Value) int {
	if s, ok := v.(starlark.String); ok {
		return len(s)
	}
	return starlark.Len(v)
}

// tooBig refuses a value of n elements.
func tooBig(what string, n int) error {
	if n > maxValueLen {
		return &BoundError{fmt.Sprintf("%s of %d elements, more than the %d a script may build", what, n, maxValueLen)}
	}
	return nil
}

// chargeLen charges a value of n elements about to be built.
func chargeLen(thread *starlark.Thread, what string, n int) error {
	if err := tooBig(what, n); err != nil {
		return err
	}
	return charge(thread, 16*n+32, n/16)
}

// rendered estimates the length of str(v), giving up past limit: a list
// holding itself a thousand times over is short in memory and long in
// text.
func rendered(v starlark.Value, limit int) int {
	switch v := v.(type) {
	case starlark.String:
		return len(v) + 2
	case starlark.Int:
		if _, ok := v.Int64(); ok {
			return 20
		}
		return v.BigInt().BitLen()/3 + 2
	case starlark.Indexable:
		n := 2
		for i := range v.Len() {
			if n > limit {
				return n
			}
			n += rendered(v.Index(i), limit-n) + 2
		}
		return n
	case starlark.IterableMapping:
		n := 2
		for _, kv := range v.Items() {
			if n > limit {
				return n
			}
			n += rendered(kv[0], limit-n) + rendered(kv[1], limit-n) + 4
		}
		return n
	}
	return 32
}

// chargeText charges the text of values about to be rendered (str, repr,
// print, %, format).
func chargeText(thread *starlark.Thread, vs ...starlark.Value) error {
	n := 0
	for _, v := range vs {
		n += rendered(v, maxValueLen+1)
	}
	if n > maxValueLen {
		return &BoundError{fmt.Sprintf("a string of about %d bytes, more than the %d a script may build", n, maxValueLen)}
	}
	return charge(thread, n, n/16)
}

// The helpers the compiled script calls in place of the operators.
const (
	helperBinary = "__binary"
	helperSlice  = "__slice"
	helperSpread = "__spread"
	helperMethod = "__method"
	helperUpdate = "__update"
)

// charged lists the methods of strings, lists, dicts and sets that build a
// value in proportion to their operands; rewrite routes their use through
// __method.
var charged = map[string]bool{
	"join": true, "replace": true, "format": true, "split": true, "rsplit": true,
	"splitlines": true, "partition": true, "rpartition": true, "capitalize": true,
	"lower": true, "upper": true, "title": true, "strip": true, "lstrip": true,
	"rstrip": true, "removeprefix": true, "removesuffix": true, "extend": true,
	"update": true, "items": true, "keys": true, "values": true, "union": true,
	"intersection": true, "difference": true, "symmetric_difference": true,
}

// binaryOps are the operators rewrite routes through __binary.
var binaryOps = map[syntax.Token]bool{
	syntax.PLUS: true, syntax.STAR: true, syntax.PERCENT: true, syntax.PIPE: true,
	syntax.LTLT: true, syntax.IN: true, syntax.NOT_IN: true,
}

// augmented maps x op= y to its binary operator.
var augmented = map[syntax.Token]syntax.Token{
	syntax.PLUS_EQ: syntax.PLUS, syntax.STAR_EQ: syntax.STAR, syntax.PERCENT_EQ: syntax.PERCENT,
	syntax.PIPE_EQ: syntax.PIPE, syntax.LTLT_EQ: syntax.LTLT,
}

// rewrite routes, in place, every operation of f whose cost grows with its
// operands through the helpers that charge it. It refuses names the
// helpers take (__...), so that no script can define its own, and an
// augmented assignment to a target that would be evaluated twice.
//
// traced says which of a script's two programs this is: the one played
// while a trace is recorded keeps its note and print statements; the
// other has none, so that narration costs a simulation nothing, as the
// built-in Opposition's notes do.
func rewrite(f *syntax.File, traced bool) error {
	var err error
	fail := func(pos syntax.Position, format string, args ...any) {
		if err == nil {
			err = fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...))
		}
	}
	var stmts func([]syntax.Stmt)
	var expr func(syntax.Expr) syntax.Expr
	exprs := func(es []syntax.Expr) {
		for i := range es {
			es[i] = expr(es[i])
		}
	}
	call := func(pos syntax.Position, name string, args ...syntax.Expr) syntax.Expr {
		return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
	}
	str := func(pos syntax.Position, s string) syntax.Expr {
		return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
	}
	none := func(pos syntax.Position) syntax.Expr { return &syntax.Ident{NamePos: pos, Name: "None"} }
	expr = func(e syntax.Expr) syntax.Expr {
		switch e := e.(type) {
		case nil:
			return nil
		case *syntax.Ident:
			if strings.HasPrefix(e.Name, "__") {
				fail(e.NamePos, "the name %s is reserved (names beginning with __ are the sandbox's)", e.Name)
			}
		case *syntax.BinaryExpr:
			e.X, e.Y = expr(e.X), expr(e.Y)
			if binaryOps[e.Op] {
				return call(e.OpPos, helperBinary, str(e.OpPos, e.Op.String()), e.X, e.Y)
			}
		case *syntax.UnaryExpr:
			e.X = expr(e.X)
		case *syntax.CallExpr:
			e.Fn = expr(e.Fn)
			for i, a := range e.Args {
				if u, ok := a.(*syntax.UnaryExpr); ok && (u.Op == syntax.STAR || u.Op == syntax.STARSTAR) {
					u.X = call(u.OpPos, helperSpread, expr(u.X))
					continue
				}
				e.Args[i] = expr(a)
			}
		case *syntax.DotExpr:
			e.X = expr(e.X)
			if charged[e.Name.Name] {
				return call(e.Dot, helperMethod, e.X, str(e.NamePos, e.Name.Name))
			}
		case *syntax.IndexExpr:
			e.X, e.Y = expr(e.X), expr(e.Y)
		case *syntax.SliceExpr:
			x, lo, hi, step := expr(e.X), expr(e.Lo), expr(e.Hi), expr(e.Step)
			orNone := func(v syntax.Expr) syntax.Expr {
				if v == nil {
					return none(e.Lbrack)
				}
				return v
			}
			return call(e.Lbrack, helperSlice, x, orNone(lo), orNone(hi), orNone(step))
		case *syntax.ParenExpr:
			e.X = expr(e.X)
		case *syntax.CondExpr:
			e.Cond, e.True, e.False = expr(e.Cond), expr(e.True), expr(e.False)
		case *syntax.ListExpr:
			exprs(e.List)
		case *syntax.TupleExpr:
			exprs(e.List)
		case *syntax.DictExpr:
			exprs(e.List)
		case *syntax.DictEntry:
			e.Key, e.Value = expr(e.Key), expr(e.Value)
		case *syntax.Comprehension:
			e.Body = expr(e.Body)
			for _, cl := range e.Clauses {
				switch cl := cl.(type) {
				case *syntax.ForClause:
					cl.Vars, cl.X = expr(cl.Vars), expr(cl.X)
				case *syntax.IfClause:
					cl.Cond = expr(cl.Cond)
				}
			}
		case *syntax.LambdaExpr:
			exprs(e.Params)
			e.Body = expr(e.Body)
		}
		return e
	}
	stmts = func(ss []syntax.Stmt) {
		for i, s := range ss {
			if e, ok := s.(*syntax.ExprStmt); ok && !traced {
				if c, ok := e.X.(*syntax.CallExpr); ok {
					if id, ok := c.Fn.(*syntax.Ident); ok && (id.Name == "note" || id.Name == "print") {
						ss[i] = &syntax.BranchStmt{Token: syntax.PASS, TokenPos: id.NamePos}
						continue
					}
				}
			}
			switch s := s.(type) {
			case *syntax.AssignStmt:
				op, aug := augmented[s.Op]
				if !aug {
					s.LHS, s.RHS = expr(s.LHS), expr(s.RHS)
					continue
				}
				// x op= y becomes x = __update(op, x, y): the target read
				// again must be the same, so it may only be a name, or a
				// name indexed or selected by a name or a constant.
				read, ok := reread(s.LHS)
				if !ok {
					fail(s.OpPos, "%s on this target would evaluate it twice: write it as x = x %s y", s.Op, op)
					continue
				}
				s.RHS = call(s.OpPos, helperUpdate, str(s.OpPos, op.String()), expr(read), expr(s.RHS))
				s.LHS = expr(s.LHS)
				s.Op = syntax.EQ
			case *syntax.DefStmt:
				if strings.HasPrefix(s.Name.Name, "__") {
					fail(s.Name.NamePos, "the name %s is reserved (names beginning with __ are the sandbox's)", s.Name.Name)
				}
				exprs(s.Params)
				stmts(s.Body)
			case *syntax.ExprStmt:
				s.X = expr(s.X)
			case *syntax.IfStmt:
				s.Cond = expr(s.Cond)
				stmts(s.True)
				stmts(s.False)
			case *syntax.ForStmt:
				s.Vars, s.X = expr(s.Vars), expr(s.X)
				stmts(s.Body)
			case *syntax.WhileStmt:
				s.Cond = expr(s.Cond)
				stmts(s.Body)
			case *syntax.ReturnStmt:
				s.Result = expr(s.Result)
			case *syntax.LoadStmt:
				fail(s.Load, "load is not available: an automaton is one file, whose whole content is part of the rules hash")
			}
		}
	}
	stmts(f.Stmts)
	return err
}

// reread is a copy of an assignment target to read it again: a name, or
// a name indexed or selected by a name or a constant; ok is false for any
// other target.
func reread(e syntax.Expr) (syntax.Expr, bool) {
	simple := func(e syntax.Expr) (syntax.Expr, bool) {
		switch e := e.(type) {
		case *syntax.Ident:
			return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}, true
		case *syntax.Literal:
			c := *e
			return &c, true
		}
		return nil, false
	}
	switch e := e.(type) {
	case *syntax.Ident:
		return simple(e)
	case *syntax.IndexExpr:
		x, ok1 := simple(e.X)
		y, ok2 := simple(e.Y)
		if ok1 && ok2 {
			return &syntax.IndexExpr{X: x, Lbrack: e.Lbrack, Y: y, Rbrack: e.Rbrack}, true
		}
	case *syntax.DotExpr:
		if x, ok := simple(e.X); ok {
			return &syntax.DotExpr{X: x, Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.NamePos, Name: e.Name.Name}}, true
		}
	}
	return nil, false
}

// sandboxBuiltins are the predeclared names that replace or add to
// Starlark's universe: the helpers rewrite calls, and the builtins that
// build values, charged.
func sandboxBuiltins() starlark.StringDict {
	d := starlark.StringDict{
		helperBinary: starlark.NewBuiltin(helperBinary, binaryHelper),
		helperUpdate: starlark.NewBuiltin(helperUpdate, updateHelper),
		helperSlice:  starlark.NewBuiltin(helperSlice, sliceHelper),
		helperSpread: starlark.NewBuiltin(helperSpread, spreadHelper),
		helperMethod: starlark.NewBuiltin(helperMethod, methodHelper),
		"getattr":    starlark.NewBuiltin("getattr", getattrCharged),
		"str":        starlark.NewBuiltin("str", textCharged("str")),
		"repr":       starlark.NewBuiltin("repr", textCharged("repr")),
	}
	for _, name := range []string{"list", "tuple", "set", "sorted", "reversed", "enumerate", "dict"} {
		d[name] = starlark.NewBuiltin(name, lengthCharged(name))
	}
	d["zip"] = starlark.NewBuiltin("zip", zipCharged)
	return d
}

// binaryHelper is x op y, charged.
func binaryHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	op, x, y := args[0].(starlark.String), args[1], args[2]
	tok := tokenOf[string(op)]
	if err := chargeBinary(thread, tok, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(tok, x, y)
}

var tokenOf = map[string]syntax.Token{}

func init() {
	for t := range binaryOps {
		tokenOf[t.String()] = t
	}
}

// chargeBinary charges x op y before it is computed.
func chargeBinary(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) error {
	switch op {
	case syntax.IN, syntax.NOT_IN:
		if n := valueLen(y); n > 0 {
			thread.Steps += uint64(n / 8)
		}
		return nil
	case syntax.PERCENT:
		if s, ok := x.(starlark.String); ok {
			if err := chargeText(thread, y); err != nil {
				return err
			}
			return charge(thread, len(s), 0)
		}
	case syntax.LTLT:
		if xi, ok := x.(starlark.Int); ok {
			if n, err := starlark.AsInt32(y); err == nil && xi.BigInt().BitLen()+n > maxIntBits {
				return &BoundError{fmt.Sprintf("an integer of more than %d bits", maxIntBits)}
			}
		}
		return nil
	case syntax.STAR:
		xi, xInt := x.(starlark.Int)
		yi, yInt := y.(starlark.Int)
		switch {
		case xInt && yInt:
			if xi.BigInt().BitLen()+yi.BigInt().BitLen() > maxIntBits {
				return &BoundError{fmt.Sprintf("an integer of more than %d bits", maxIntBits)}
			}
			return nil
		case yInt:
			return chargeRepeat(thread, x, yi)
		case xInt:
			return chargeRepeat(thread, y, xi)
		}
		return nil
	}
	// + and |: the result is at most the two operands together.
	nx, ny := valueLen(x), valueLen(y)
	if nx < 0 || ny < 0 {
		return nil
	}
	if err := tooBig("a "+x.Type(), nx+ny); err != nil {
		return err
	}
	if _, ok := x.(starlark.String); ok {
		return charge(thread, nx+ny, (nx+ny)/64)
	}
	return charge(thread, 16*(nx+ny)+32, (nx+ny)/8)
}

// chargeRepeat charges a string, list or tuple repeated n times.
func chargeRepeat(thread *starlark.Thread, x starlark.Value, n starlark.Int) error {
	k := valueLen(x)
	if k <= 0 || n.Sign() <= 0 {
		return nil
	}
	times, ok := n.Int64()
	if !ok || times > maxValueLen || int64(k)*times > maxValueLen {
		return &BoundError{fmt.Sprintf("a %s repeated %s times, more than the %d elements a script may build", x.Type(), n, maxValueLen)}
	}
	total := k * int(times)
	if _, ok := x.(starlark.String); ok {
		return charge(thread, total, total/64)
	}
	return charge(thread, 16*total+32, total/8)
}

// updateHelper is x op= y: for a list, += extends it in place, as
// Starlark's own x += y does; otherwise it is x op y.
func updateHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	op, x, y := tokenOf[string(args[0].(starlark.String))], args[1], args[2]
	if err := chargeBinary(thread, op, x, y); err != nil {
		return nil, err
	}
	if l, ok := x.(*starlark.List); ok && op == syntax.PLUS {
		it := starlark.Iterate(y)
		if it == nil {
			return nil, fmt.Errorf("unknown binary op: list += %s", y.Type())
		}
		defer it.Done()
		var v starlark.Value
		var add []starlark.Value
		for it.Next(&v) {
			add = append(add, v)
		}
		for _, v := range add {
			if err := l.Append(v); err != nil {
				return nil, err
			}
		}
		return l, nil
	}
	return starlark.Binary(op, x, y)
}

// spreadHelper charges the copy that f(*x) and f(**x) make of x.
func spreadHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if n := valueLen(args[0]); n > 0 {
		if err := chargeLen(thread, "an argument list", n); err != nil {
			return nil, err
		}
	}
	return args[0], nil
}

// sliceHelper is x[lo:hi:step], charged by the length of the result.
func sliceHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, lo, hi, stepV := args[0], args[1], args[2], args[3]
	s, ok := x.(starlark.Sliceable)
	if !ok {
		return nil, fmt.Errorf("invalid slice operand %s", x.Type())
	}
	n := s.Len()
	step := 1
	if stepV != starlark.None {
		var err error
		if step, err = starlark.AsInt32(stepV); err != nil {
			return nil, fmt.Errorf("invalid slice step: %s", err)
		}
		if step == 0 {
			return nil, errors.New("zero is not a valid slice step")
		}
	}
	index := func(v starlark.Value, def int) (int, error) {
		if v == starlark.None {
			return def, nil
		}
		i, err := starlark.AsInt32(v)
		if err != nil {
			return 0, err
		}
		if i < 0 {
			i += n
		}
		return i, nil
	}
	var start, end int
	var err error
	if step > 0 {
		if start, err = index(lo, 0); err != nil {
			return nil, fmt.Errorf("invalid start index: %s", err)
		}
		if end, err = index(hi, n); err != nil {
			return nil, fmt.Errorf("invalid end index: %s", err)
		}
		start, end = min(max(start, 0), n), min(max(end, 0), n)
		end = max(end, start)
	} else {
		if start, err = index(lo, n-1); err != nil {
			return nil, fmt.Errorf("invalid start index: %s", err)
		}
		start = min(start, n-1)
		if end, err = index(hi, -1); err != nil {
			return nil, fmt.Errorf("invalid end index: %s", err)
		}
		end = max(end, -1)
		start = max(start, end)
	}
	k := (abs(end-start) + abs(step) - 1) / abs(step)
	if _, ok := x.(starlark.String); ok {
		err = charge(thread, k, k/64)
	} else {
		err = chargeLen(thread, "a slice", k)
	}
	if err != nil {
		return nil, err
	}
	return s.Slice(start, end, step), nil
}

func abs(x int) int { return max(x, -x) }

// methodHelper is x.name for the methods in charged: the method, wrapped so
// that a call charges what it builds before it builds it.
func methodHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name := args[0], string(args[1].(starlark.String))
	return chargedAttr(x, name)
}

// chargedAttr is x.name, wrapped when name builds a value.
func chargedAttr(x starlark.Value, name string) (starlark.Value, error) {
	has, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	m, err := has.Attr(name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, starlark.NoSuchAttrError(fmt.Sprintf("%s has no .%s field or method", x.Type(), name))
	}
	method, ok := m.(*starlark.Builtin)
	if !ok || !charged[name] {
		return m, nil
	}
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := chargeMethod(thread, x, name, a, kw); err != nil {
			return nil, err
		}
		return starlark.Call(thread, method, a, kw)
	}), nil
}

// chargeMethod charges the call x.name(args) before it is made.
func chargeMethod(thread *starlark.Thread, x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	n := max(valueLen(x), 0)
	switch name {
	case "join":
		if len(args) != 1 {
			return nil // the method's own error
		}
		total, count := 0, 0
		var v starlark.Value
		it := starlark.Iterate(args[0])
		if it == nil {
			return nil
		}
		defer it.Done()
		for it.Next(&v) {
			count++
			if s, ok := v.(starlark.String); ok {
				total += len(s) + n
			}
			if total > maxValueLen {
				return &BoundError{fmt.Sprintf("a joined string of more than %d bytes", maxValueLen)}
			}
		}
		return charge(thread, total, count)
	case "replace":
		if len(args) < 2 {
			return nil
		}
		old, ok1 := args[0].(starlark.String)
		repl, ok2 := args[1].(starlark.String)
		s, ok3 := x.(starlark.String)
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		k := strings.Count(string(s), string(old))
		total := len(s) + k*max(0, len(repl)-len(old))
		if total > maxValueLen {
			return &BoundError{fmt.Sprintf("a replaced string of %d bytes, more than the %d a script may build", total, maxValueLen)}
		}
		return charge(thread, total, total/64)
	case "format":
		braces := 0
		if s, ok := x.(starlark.String); ok {
			braces = strings.Count(string(s), "{")
		}
		most := 0
		for _, a := range args {
			most = max(most, rendered(a, maxValueLen+1))
		}
		for _, kv := range kwargs {
			most = max(most, rendered(kv[1], maxValueLen+1))
		}
		total := n + braces*most
		if total > maxValueLen {
			return &BoundError{fmt.Sprintf("a formatted string of about %d bytes, more than the %d a script may build", total, maxValueLen)}
		}
		return charge(thread, total, total/64)
	case "extend", "update", "union", "intersection", "difference", "symmetric_difference":
		m := n
		for _, a := range args {
			m += max(valueLen(a), 0)
		}
		return chargeLen(thread, "a "+x.Type(), m)
	case "split", "rsplit", "splitlines", "partition", "rpartition":
		return charge(thread, 17*n+32, n/8)
	}
	// items, keys, values; capitalize, lower, upper, title, strip...: at
	// most as long as x.
	return chargeLen(thread, "a "+x.Type(), n)
}

// getattrCharged is getattr, which reaches the charged methods too.
func getattrCharged(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, def starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("getattr", args, kwargs, 2, &x, &name, &def); err != nil {
		return nil, err
	}
	v, err := chargedAttr(x, name)
	if err != nil && def != nil {
		return def, nil
	}
	return v, err
}

// textCharged is str or repr, charged by the text it makes.
func textCharged(name string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := chargeText(thread, args...); err != nil {
			return nil, err
		}
		return starlark.Call(thread, orig, args, kwargs)
	}
}

// lengthCharged is a builtin that builds a value as long as its first
// argument (list, tuple, set, sorted, reversed, enumerate, dict), charged
// by that length; an argument of no known length is counted out first.
func lengthCharged(name string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			n, counted, err := countOut(thread, args[0])
			if err != nil {
				return nil, err
			}
			if err := chargeLen(thread, "a "+name, n+len(kwargs)); err != nil {
				return nil, err
			}
			if counted != nil {
				args = append(starlark.Tuple{counted}, args[1:]...)
			}
		}
		return starlark.Call(thread, orig, args, kwargs)
	}
}

// countOut is the length of x, counting an iterable of no known length out
// into a list (charged as it goes); counted is that list, nil when x has a
// length.
func countOut(thread *starlark.Thread, x starlark.Value) (n int, counted starlark.Value, err error) {
	if n := valueLen(x); n >= 0 {
		return n, nil, nil
	}
	it := starlark.Iterate(x)
	if it == nil {
		return 0, nil, nil // the builtin's own error
	}
	defer it.Done()
	var elems []starlark.Value
	var v starlark.Value
	for it.Next(&v) {
		if err := chargeLen(thread, "an iteration", len(elems)+1); err != nil {
			return 0, nil, err
		}
		elems = append(elems, v)
	}
	return len(elems), starlark.NewList(elems), nil
}

// zipCharged is zip, charged by its shortest argument times their number.
func zipCharged(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	args = append(starlark.Tuple(nil), args...) // the interpreter's, not ours to change
	shortest := -1
	for i, a := range args {
		n, counted, err := countOut(thread, a)
		if err != nil {
			return nil, err
		}
		if counted != nil {
			args[i] = counted
		}
		if shortest < 0 || n < shortest {
			shortest = n
		}
	}
	if err := chargeLen(thread, "a zip", max(0, shortest)*(len(args)+1)); err != nil {
		return nil, err
	}
	return starlark.Call(thread, starlark.Universe["zip"], args, kwargs)
}
