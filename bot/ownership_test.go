package bot

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedFields are the fields of *Bot that every feature may use: the
// dependencies the bot is made of, not the state of a feature. Keep this
// list short; a feature's state is a type of its own (doc.go, "Who owns
// what").
var sharedFields = map[string]string{
	"cfg":     "the configuration",
	"play":    "the play service",
	"round":   "the round every act goes through",
	"s":       "the Discord session",
	"log":     "the logger",
	"Metrics": "the counters the HTTP listener reads",
}

// TestBotIsSplitByOwnership guards doc.go's rule: *Bot holds the shared
// dependencies and one field per feature, of a small type of that
// feature's, whose state only its own methods touch.
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
need of that state, and give *Bot one field of that type ("puzzles puzzles", set up in New if it needs it).
Handlers call its methods (b.puzzles.next(user)); only those methods touch its fields. See bot/doc.go,
"Who owns what". The few fields every feature shares are sharedFields, in bot/ownership_test.go.`

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
		for _, n := range f.Names {
			switch {
			case sharedFields[n.Name] != "":
			case types[tn] != nil && tn != "Bot" && tn != "Config":
				features[n.Name] = tn
			default:
				problems = append(problems, fmt.Sprintf("%s: *Bot has a field %q of type %s, which is no type of a feature's: move it into a type of its feature's, in that feature's file",
					at(n.Pos()), n.Name, types2string(f.Type)))
			}
		}
	}
	var fieldNames []string
	for n := range features {
		fieldNames = append(fieldNames, n)
	}
	slices.Sort(fieldNames)
	for _, field := range fieldNames {
		tn := features[field]
		x := types[tn]
		for _, f := range x.st.Fields.List {
			if len(f.Names) == 0 {
				problems = append(problems, fmt.Sprintf("%s: %s (the type of *Bot's %q) embeds %s, whose methods anyone may then call: give it a name, and methods of %s that use it",
					at(f.Pos()), tn, field, types2string(f.Type), tn))
			}
			if typeName(f.Type) == "Bot" {
				problems = append(problems, fmt.Sprintf("%s: %s (the type of *Bot's %q) holds the *Bot, and with it every feature's state: give it only what it uses",
					at(f.Pos()), tn, field))
			}
		}
		for m, file := range methods[tn] {
			if file != x.file {
				problems = append(problems, fmt.Sprintf("%s: method %s.%s is declared in %s: a feature's type keeps its methods beside it, in %s",
					file, tn, m, file, x.file))
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
	cfg     Config
	s       *discordgo.Session
	puzzles puzzles
	%s
}
type Config struct{ Token string }
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
func (b *Bot) puzzleCommand(user string) int { %s }
`
	for _, c := range []struct {
		name                            string
		botField, state, global, handle string
		want                            string // in a problem; "" for none
	}{
		{name: "the rule kept", handle: "return b.puzzles.next(user)"},
		{name: "a cache on *Bot", botField: "seen sync.Map", handle: "return 0", want: `field "seen" of type sync.Map`},
		{name: "a lock on *Bot", botField: "puzzleMu sync.Mutex", handle: "return 0", want: `field "puzzleMu"`},
		{name: "a map on *Bot", botField: "streaks map[string]int", handle: "return 0", want: `field "streaks"`},
		{name: "a handler reaching in", handle: "b.puzzles.mu.Lock(); defer b.puzzles.mu.Unlock(); return b.puzzles.byUser[user]",
			want: ".puzzles.mu reaches into the state of puzzles"},
		{name: "a feature's type holding the bot", state: "b *Bot", handle: "return 0", want: "holds the *Bot"},
		{name: "a feature's type embedding its lock", state: "sync.RWMutex", handle: "return b.puzzles.next(user)", want: "embeds sync.RWMutex"},
		{name: "a lock at package level", global: "var puzzlesMu sync.Mutex", handle: "return 0", want: "package-level sync.Mutex puzzlesMu"},
		{name: "a cache at package level", global: "var solved = sync.Map{}", handle: "return 0", want: "package-level sync.Map solved"},
		{name: "a counter at package level", global: "var tries atomic.Int64", handle: "return 0", want: "package-level atomic.Int64 tries"},
		{name: "a shared dependency", botField: "log *slog.Logger", handle: "return 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			files := map[string]*ast.File{}
			for name, src := range map[string]string{
				"bot.go":     fmt.Sprintf(botDecl, c.botField),
				"puzzles.go": fmt.Sprintf(puzzlesFile, c.state) + c.global,
				"puzzle.go":  fmt.Sprintf(handler, c.handle),
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
		"bot.go":     fmt.Sprintf(botDecl, ""),
		"puzzles.go": fmt.Sprintf(puzzlesFile, ""),
		"puzzle.go":  "package bot\nfunc (p *puzzles) reset() { p.byUser = nil }\n",
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
