package fakediscord_test

import (
	"slices"
	"testing"
)

// TestActiveThreads: GET /guilds/{guild}/threads/active lists the
// guild's threads that are not archived, each with its parent.
func TestActiveThreads(t *testing.T) {
	w := newWorld(t)
	one := w.thread(t, w.chess.ID, 60)
	two := w.thread(t, w.chess.ID, 60)
	archived := w.thread(t, w.chess.ID, 60)
	w.srv.Archive(archived.ID)
	list, err := w.dg.GuildThreadsActive(w.guild.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, th := range list.Threads {
		if th.ParentID != w.chess.ID || th.ThreadMetadata == nil || th.ThreadMetadata.Archived {
			t.Errorf("thread %s reads %+v", th.ID, th)
		}
		got = append(got, th.ID)
	}
	if !slices.Equal(got, []string{one.ID, two.ID}) {
		t.Errorf("active threads %v, want %v", got, []string{one.ID, two.ID})
	}
	if _, err := w.dg.GuildThreadsActive("123"); err == nil {
		t.Error("the active threads of no guild were listed")
	}
}
