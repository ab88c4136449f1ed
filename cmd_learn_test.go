package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLearnRunsTheLessonsInTheTerminal(t *testing.T) {
	old := localInput
	t.Cleanup(func() { localInput = old })
	localInput = strings.NewReader("1\nb2e5\nNe5\n\nNxd5\nlessons\nquit\n")
	var out, errs strings.Builder
	if code := dispatch([]string{"learn", "-lang", "nl"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	s := out.String()
	for _, want := range []string{
		"Leer IJstijdschaken",
		"Zet in één zet een stuk op e5.",
		"De loper op b2 kan e5 niet bereiken: ijs op d4 staat in de weg",
		"Ne5: opgelost! Sterren: ★★☆",
		"Les voltooid! 5 van 6 sterren",
		" 1. IJs houdt elk stuk tegen behalve het paard  ★★★★★☆",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("iceage learn printed no %q:\n%s", want, s)
		}
	}
}

// With -db the stars outlast the session.
func TestLearnKeepsTheStarsInADatabase(t *testing.T) {
	old := localInput
	t.Cleanup(func() { localInput = old })
	db := filepath.Join(t.TempDir(), "learn.db")
	localInput = strings.NewReader("3\nexd5\nquit\n")
	var out, errs strings.Builder
	if code := dispatch([]string{"learn", "-db", db}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	localInput = strings.NewReader("quit\n")
	out.Reset()
	if code := dispatch([]string{"learn", "-db", db}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), " 3. Pawns and ice  ★★★☆☆☆") || !strings.Contains(out.String(), "3 of 57 stars") {
		t.Fatalf("the second session shows:\n%s", out.String())
	}
}

func TestLearnRefusesArguments(t *testing.T) {
	var out, errs strings.Builder
	if code := dispatch([]string{"learn", "1"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "unexpected argument") {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
}
