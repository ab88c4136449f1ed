package round_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// actMethods are play.Service's methods that act on a game: what follows
// from them (boards, whom to tell, the engine's turn) is written by
// package round in their transaction, so nothing but round calls them.
var actMethods = []string{
	"Accept", "Ask", "Challenge", "Start", "Move", "Premove", "OfferDraw", "AcceptDraw", "DeclineDraw", "WithdrawDraw",
	"RequestTakeback", "AcceptTakeback", "DeclineTakeback", "WithdrawTakeback",
	"Resign", "Abort", "TimeOut", "ClaimWin", "ClaimDraw", "Rehome", "Adjudicate", "Then",
	// The notices that are no act on a game decide whom they tell in
	// the round too (notices.go).
	"Remind", "Expire", "ExpireWith", "Vacation",
}

// doorless are the packages that reach play's games only through the
// round, and must import it.
var doorless = []string{
	"github.com/iceagechess/iceage/activity",
	"github.com/iceagechess/iceage/bot",
	"github.com/iceagechess/iceage/schedule",
	"github.com/iceagechess/iceage/tournament",
}

// The round is the only door: bot, schedule and tournament use none of
// play.Service's act methods — no call, no method value — in their code
// (their tests may set games up through play). The packages are
// type-checked from their source against the export data of their
// dependencies, so that a call through any variable or field is seen.
func TestTheRoundIsTheOnlyDoor(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export,Imports"}, doorless...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	type pkg struct {
		ImportPath, Dir, Export string
		GoFiles, Imports        []string
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := pkgs[path]
		if !ok || p.Export == "" {
			return nil, errors.New("no export data for " + path)
		}
		return os.Open(p.Export)
	})
	for _, path := range doorless {
		p := pkgs[path]
		if !slices.Contains(p.Imports, "github.com/iceagechess/iceage/play/round") {
			t.Errorf("%s does not import play/round: it reaches play's games some other way", path)
		}
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
		if _, err := (&types.Config{Importer: imp}).Check(path, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", path, err)
		}
		for x, sel := range info.Selections {
			if sel.Kind() == types.FieldVal || !isService(sel.Recv()) || !slices.Contains(actMethods, sel.Obj().Name()) {
				continue
			}
			t.Errorf("%s: %s calls play.Service.%s: an act goes through play/round", fset.Position(x.Pos()), path, sel.Obj().Name())
		}
	}
}

// isService reports whether t is play.Service or a pointer to it.
func isService(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Service" && n.Obj().Pkg() != nil && strings.HasSuffix(n.Obj().Pkg().Path(), "/iceage/play")
}
