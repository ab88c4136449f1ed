package bot

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/play"
)

// sharedFields are the fields of type shared, which the bot and every
// feature's handlers hold: the dependencies the bot is made of, not the
// state of a feature. Keep this list short; a feature's state is a type
// of its own (doc.go, "Who owns what").
var sharedFields = map[string]string{
	"cfg":     "the configuration",
	"play":    "the play service",
	"round":   "the round every act goes through",
	"s":       "the Discord session",
	"log":     "the logger",
	"metrics": "the counters the HTTP listener reads (Bot.Metrics)",
}

// TestBotIsSplitByOwnership guards doc.go's rule: *Bot holds the shared
// dependencies and one field per feature, of a small type of that
// feature's, whose state only its own methods touch; every command,
// autocomplete and click is answered by a feature's handlers, which
// never hold the *Bot.
func TestBotIsSplitByOwnership(t *testing.T) {
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	problems := ownershipProblems(fset, files)
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Log(ownershipHelp)
	}
}

// ownershipHelp tells whoever broke the rule what to do instead.
const ownershipHelp = `How to fix it: a feature's state is not a field of *Bot. Declare a small type in the feature's own file
(say "type puzzles struct { mu sync.Mutex; byUser map[string]puzzle }"), with methods that do what handlers
need of that state, and give *Bot one field of that type ("puzzles *puzzles", set up in New). Only its
methods touch its fields. A command's, autocomplete's or click's handler is a method of its feature's
handlers, a type that holds the shared dependencies and the features it uses, never the *Bot (say
"type puzzleDesk struct { *shared; puzzles *puzzles }", wired in New), bound in the feature's init with
runBy, completeBy, clickBy or gameAct through the bot's field that holds it. See bot/doc.go, "Who owns
what". The few dependencies every feature shares are sharedFields, in bot/ownership_test.go.`

// ownershipProblems checks the package's files (by name) against the
// rule.
func ownershipProblems(fset *token.FileSet, files map[string]*ast.File) []string {
	type declared struct {
		file   string
		st     *ast.StructType
		fields map[string]bool
	}
	types := map[string]*declared{}
	methods := map[string]map[string]string{} // type → method → file
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, d := range files[name].Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					x := &declared{file: name, st: st, fields: map[string]bool{}}
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							x.fields[n.Name] = true
						}
						if len(f.Names) == 0 {
							x.fields[typeName(f.Type)] = true
						}
					}
					types[ts.Name.Name] = x
				}
			case *ast.FuncDecl:
				if r := receiver(d); r != "" {
					if methods[r] == nil {
						methods[r] = map[string]string{}
					}
					methods[r][d.Name.Name] = name
				}
			}
		}
	}
	bot := types["Bot"]
	if bot == nil {
		return []string{"no type Bot in the package"}
	}
	var problems []string
	at := func(p token.Pos) string { return fset.Position(p).String() }
	// State at package level is shared by every *Bot (and every test's):
	// it is no way around the rule either.
	for _, name := range names {
		for _, d := range files[name].Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				t := v.Type
				for _, x := range v.Values {
					if c, ok := x.(*ast.CompositeLit); ok && t == nil {
						t = c.Type
					}
				}
				if kind := syncType(t); kind != "" {
					problems = append(problems, fmt.Sprintf("%s: the package-level %s %s is state every *Bot shares: make it a field of its feature's type",
						at(v.Pos()), kind, v.Names[0].Name))
				}
			}
		}
	}
	features := map[string]string{} // field of *Bot → its type
	for _, f := range bot.st.Fields.List {
		tn := typeName(f.Type)
		if len(f.Names) == 0 && tn != "shared" {
			problems = append(problems, fmt.Sprintf("%s: *Bot embeds %s: give it a name", at(f.Pos()), types2string(f.Type)))
		}
		for _, n := range f.Names {
			switch {
			case n.Name == "Metrics" && tn == "Metrics":
			case types[tn] != nil && tn != "Bot" && tn != "Config":
				features[n.Name] = tn
			default:
				problems = append(problems, fmt.Sprintf("%s: *Bot has a field %q of type %s, which is no type of a feature's: move it into a type of its feature's, in that feature's file",
					at(n.Pos()), n.Name, types2string(f.Type)))
			}
		}
	}
	// shared holds the dependencies every feature uses, and nothing else.
	if sh := types["shared"]; sh != nil {
		for _, f := range sh.st.Fields.List {
			for _, n := range f.Names {
				if sharedFields[n.Name] == "" {
					problems = append(problems, fmt.Sprintf("%s: shared has a field %q, which is no dependency every feature uses (sharedFields): make it a type of its feature's, and give it to the handlers that use it",
						at(n.Pos()), n.Name))
				}
			}
		}
	}
	// The bot holds its features; no type holds the bot, and with it
	// every feature's state.
	var typeNames []string
	for n := range types {
		typeNames = append(typeNames, n)
	}
	slices.Sort(typeNames)
	for _, tn := range typeNames {
		if tn == "Bot" || isFeature(features, tn) {
			continue // a feature's type is checked below
		}
		for _, f := range types[tn].st.Fields.List {
			if typeName(f.Type) == "Bot" {
				problems = append(problems, fmt.Sprintf("%s: %s holds the *Bot, and with it every feature's state: give it only what it uses",
					at(f.Pos()), tn))
			}
		}
	}
	problems = append(problems, handlerProblems(fset, files, names, methods["Bot"])...)
	var fieldNames []string
	for n := range features {
		fieldNames = append(fieldNames, n)
	}
	slices.Sort(fieldNames)
	for _, field := range fieldNames {
		tn := features[field]
		x := types[tn]
		for _, f := range x.st.Fields.List {
			if len(f.Names) == 0 && typeName(f.Type) != "shared" {
				problems = append(problems, fmt.Sprintf("%s: %s (the type of *Bot's %q) embeds %s, whose methods anyone may then call: give it a name, and methods of %s that use it",
					at(f.Pos()), tn, field, types2string(f.Type), tn))
			}
			if typeName(f.Type) == "Bot" {
				problems = append(problems, fmt.Sprintf("%s: %s (the type of *Bot's %q) holds the *Bot, and with it every feature's state: give it only what it uses",
					at(f.Pos()), tn, field))
			}
		}
		// Beside it: in its file, or in one of its feature's files named
		// after it (records.go, records_view.go). A feature's handlers
		// that keep nothing of their own, only the shared dependencies
		// and other features, may answer from several files.
		stem := strings.TrimSuffix(x.file, ".go")
		for m, file := range methods[tn] {
			if file != x.file && !strings.HasPrefix(file, stem+"_") && !stateless(x.st, types) {
				problems = append(problems, fmt.Sprintf("%s: method %s.%s is declared in %s: a feature's type keeps its methods beside it, in %s or %s_*.go",
					file, tn, m, file, x.file, stem))
			}
		}
		// Outside the type's own methods, nothing reaches b.<field>.<its field>.
		for _, name := range names {
			ast.Inspect(files[name], func(n ast.Node) bool {
				if fd, ok := n.(*ast.FuncDecl); ok && receiver(fd) == tn {
					return false
				}
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				inner, ok := sel.X.(*ast.SelectorExpr)
				if !ok || inner.Sel.Name != field || !x.fields[sel.Sel.Name] {
					return true
				}
				problems = append(problems, fmt.Sprintf("%s: .%s.%s reaches into the state of %s, which only %s's methods may touch: add a method to %s in %s and call it",
					at(sel.Pos()), field, sel.Sel.Name, tn, tn, tn, x.file))
				return true
			})
		}
	}
	return problems
}

// stateless reports whether a type keeps nothing of its own: it holds
// only the shared dependencies and pointers to other types of the
// package (a feature's handlers).
func stateless[T any](st *ast.StructType, types map[string]T) bool {
	for _, f := range st.Fields.List {
		star, ok := f.Type.(*ast.StarExpr)
		if !ok {
			return false
		}
		id, ok := star.X.(*ast.Ident)
		if !ok {
			return false
		}
		if _, ours := types[id.Name]; !ours {
			return false
		}
	}
	return true
}

// isFeature reports whether tn is the type of a field of *Bot.
func isFeature(features map[string]string, tn string) bool {
	return slices.Contains(slices.Collect(maps.Values(features)), tn)
}

// handlerProblems finds the commands, autocompletes and clicks bound to a
// method of *Bot: the run and complete of addCommand, and the handler of
// clicks.handle, whether as a method expression ((*Bot).x) or a call on
// the *Bot a binding function is given (b.x(…)).
func handlerProblems(fset *token.FileSet, files map[string]*ast.File, names []string, botMethods map[string]string) []string {
	var problems []string
	check := func(e ast.Expr) {
		bots := map[string]bool{} // the names of *Bot parameters
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				for _, p := range n.Type.Params.List {
					if typeName(p.Type) == "Bot" {
						for _, id := range p.Names {
							bots[id.Name] = true
						}
					}
				}
			case *ast.SelectorExpr:
				x := n.X
				if p, ok := x.(*ast.ParenExpr); ok {
					x = p.X
				}
				if s, ok := x.(*ast.StarExpr); ok {
					x = s.X
				}
				id, ok := x.(*ast.Ident)
				if !ok || (id.Name != "Bot" && !bots[id.Name]) || botMethods[n.Sel.Name] == "" {
					return true
				}
				problems = append(problems, fmt.Sprintf("%s: the handler %s is a method of *Bot, which reaches every feature's state: make it a method of its feature's handlers, a type that holds the shared dependencies and what the feature uses, and bind it with runBy, completeBy, clickBy or gameAct",
					fset.Position(n.Pos()), n.Sel.Name))
			}
			return true
		})
	}
	for _, name := range names {
		ast.Inspect(files[name], func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				if fn.Name != "addCommand" || len(call.Args) != 1 {
					return true
				}
				if lit, ok := call.Args[0].(*ast.CompositeLit); ok {
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "run" || k.Name == "complete") {
								check(kv.Value)
							}
						}
					}
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "clicks" && fn.Sel.Name == "handle" && len(call.Args) == 2 {
					check(call.Args[1])
				}
			}
			return true
		})
	}
	return problems
}

// syncType names a type of sync or sync/atomic that holds state (a
// lock, a map, a counter), "" for any other.
func syncType(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	switch {
	case pkg.Name == "atomic",
		pkg.Name == "sync" && slices.Contains([]string{"Map", "Mutex", "RWMutex", "WaitGroup", "Once"}, sel.Sel.Name):
		return pkg.Name + "." + sel.Sel.Name
	}
	return ""
}

// receiver is the name of the type a method is declared on, "" for a
// function.
func receiver(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	return typeName(d.Recv.List[0].Type)
}

// typeName is the name of a type of the package that e names, perhaps
// through a pointer or with type arguments; "" for anything else.
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// types2string writes a type as the source does.
func types2string(e ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), e); err != nil {
		return fmt.Sprintf("%T", e)
	}
	return b.String()
}

// TestOwnershipGuardCatches proves the guard fails on what it is meant to
// catch, and passes what the rule allows.
func TestOwnershipGuardCatches(t *testing.T) {
	const botDecl = `package bot
type Bot struct {
	*shared
	Metrics Metrics
	puzzles *puzzles
	desk    *puzzleDesk
	%s
}
type shared struct {
	cfg Config
	s   *discordgo.Session
	%s
}
type Config struct{ Token string }
type Metrics struct{ Moves atomic.Int64 }
`
	const puzzlesFile = `package bot
type puzzles struct {
	mu     sync.Mutex
	byUser map[string]int
	%s
}
func (p *puzzles) next(user string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.byUser[user]++
	return p.byUser[user]
}
`
	const handler = `package bot
func init() { addCommand(appCommand{name: "puzzle", run: %s}) }
type puzzleDesk struct {
	*shared
	puzzles *puzzles
	%s
}
func puzzleDeskOf(b *Bot) *puzzleDesk { return b.desk }
func (d *puzzleDesk) command(user string) int { %s }
func (b *Bot) puzzleCommand(user string) int { return 0 }
`
	const bound = "runBy(puzzleDeskOf, (*puzzleDesk).command)"
	for _, c := range []struct {
		name                                                string
		botField, shared, state, desk, global, handle, bind string
		want                                                string // in a problem; "" for none
	}{
		{name: "the rule kept", handle: "return d.puzzles.next(user)"},
		{name: "a cache on *Bot", botField: "seen sync.Map", want: `field "seen" of type sync.Map`},
		{name: "a lock on *Bot", botField: "puzzleMu sync.Mutex", want: `field "puzzleMu"`},
		{name: "a map on *Bot", botField: "streaks map[string]int", want: `field "streaks"`},
		{name: "a dependency on *Bot beside the shared", botField: "log *slog.Logger", want: `field "log"`},
		{name: "a shared dependency", shared: "log *slog.Logger"},
		{name: "a feature's state among the shared", shared: "streaks map[string]int", want: `shared has a field "streaks"`},
		{name: "a handler reaching in", handle: "d.puzzles.mu.Lock(); defer d.puzzles.mu.Unlock(); return d.puzzles.byUser[user]",
			want: ".puzzles.mu reaches into the state of puzzles"},
		{name: "a feature's type holding the bot", state: "b *Bot", want: "puzzles (the type of *Bot's \"puzzles\") holds the *Bot"},
		{name: "a feature's handlers holding the bot", desk: "b *Bot", want: "puzzleDesk (the type of *Bot's \"desk\") holds the *Bot"},
		{name: "any type holding the bot", global: "type reply struct{ b *Bot }", want: "reply holds the *Bot"},
		{name: "a feature's type embedding its lock", state: "sync.RWMutex", want: "embeds sync.RWMutex"},
		{name: "a lock at package level", global: "var puzzlesMu sync.Mutex", want: "package-level sync.Mutex puzzlesMu"},
		{name: "a cache at package level", global: "var solved = sync.Map{}", want: "package-level sync.Map solved"},
		{name: "a counter at package level", global: "var tries atomic.Int64", want: "package-level atomic.Int64 tries"},
		{name: "a command answered by *Bot", bind: "runBy(func(b *Bot) *Bot { return b }, (*Bot).puzzleCommand)", want: "the handler puzzleCommand is a method of *Bot"},
		{name: "a command answered by *Bot in a closure", bind: "func(b *Bot, in *interaction, _ any) error { b.puzzleCommand(in.user); return nil }",
			want: "the handler puzzleCommand is a method of *Bot"},
		{name: "a click answered by *Bot", global: "func init() { clicks.handle(idPuzzle, clickBy(func(b *Bot) *Bot { return b }, (*Bot).puzzleCommand)) }",
			want: "the handler puzzleCommand is a method of *Bot"},
		{name: "a feature's handlers answering from several files", global: "func (d *puzzleDesk) hint(user string) int { return d.puzzles.next(user) }"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.handle == "" {
				c.handle = "return 0"
			}
			if c.bind == "" {
				c.bind = bound
			}
			fset := token.NewFileSet()
			files := map[string]*ast.File{}
			for name, src := range map[string]string{
				"bot.go":     fmt.Sprintf(botDecl, c.botField, c.shared),
				"puzzles.go": fmt.Sprintf(puzzlesFile, c.state) + c.global,
				"puzzle.go":  fmt.Sprintf(handler, c.bind, c.desk, c.handle),
			} {
				f, err := parser.ParseFile(fset, name, src, 0)
				if err != nil {
					t.Fatal(err)
				}
				files[name] = f
			}
			got := ownershipProblems(fset, files)
			if c.want == "" {
				if len(got) > 0 {
					t.Errorf("problems where the rule is kept: %q", got)
				}
				return
			}
			if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, c.want) }) {
				t.Errorf("no problem saying %q; got %q", c.want, got)
			}
		})
	}
	// A method of the feature's type declared away from it.
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for name, src := range map[string]string{
		"bot.go":     fmt.Sprintf(botDecl, "", ""),
		"puzzles.go": fmt.Sprintf(puzzlesFile, ""),
		"puzzle.go":  fmt.Sprintf(handler, bound, "", "return 0") + "func (p *puzzles) reset() { p.byUser = nil }\n",
	} {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if got := ownershipProblems(fset, files); !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, "puzzles.reset is declared in puzzle.go") }) {
		t.Errorf("a method declared away from its type passes: %q", got)
	}
}

// TestEveryFeatureIsWired: New gives the bot each feature and each
// feature's handlers what they hold. A handler type wired before a
// feature it holds would hold nil, and fail only when a user got there.
func TestEveryFeatureIsWired(t *testing.T) {
	b, _, _ := offlineBot(t, play.Options{})
	v := reflect.ValueOf(b).Elem()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		if f.Kind() != reflect.Pointer {
			continue
		}
		if f.IsNil() {
			t.Errorf("New leaves the bot's %s nil", name)
			continue
		}
		if f.Elem().Kind() != reflect.Struct {
			continue
		}
		for j := range f.Elem().NumField() {
			g := f.Elem().Field(j)
			if g.Kind() == reflect.Pointer && g.IsNil() {
				t.Errorf("New leaves the %s of the bot's %s nil", f.Elem().Type().Field(j).Name, name)
			}
		}
	}
}
