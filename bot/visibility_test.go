package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/visibility"
)

// channelsStub answers GET /channels/{id} and GET /guilds/{id} from its
// maps (404 Unknown Channel or Guild otherwise) and counts the requests.
type channelsStub struct {
	mu     sync.Mutex
	bodies map[string]string // by the path's last element
	asked  map[string]int
	down   bool
}

func (s *channelsStub) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	s.asked[id]++
	status, body := http.StatusOK, s.bodies[id]
	switch {
	case s.down:
		status, body = http.StatusBadGateway, `{"message":"bad gateway","code":0}`
	case body == "" && strings.Contains(r.URL.Path, "/guilds/"):
		status, body = http.StatusNotFound, `{"message":"Unknown Guild","code":10004}`
	case body == "":
		status, body = http.StatusNotFound, `{"message":"Unknown Channel","code":10003}`
	}
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

func TestSightKeepsWhatItFetched(t *testing.T) {
	stub := &channelsStub{asked: map[string]int{}, bodies: map[string]string{
		"c1": `{"id":"c1","type":0,"guild_id":"g1","parent_id":"category","permission_overwrites":[{"id":"g1","type":0,"allow":"0","deny":"1024"},{"id":"u1","type":1,"allow":"1024","deny":"0"}]}`,
		"t1": `{"id":"t1","type":11,"guild_id":"g1","parent_id":"c1"}`,
		"g1": `{"id":"g1","name":"G","owner_id":"o","roles":[{"id":"g1","permissions":"1024"},{"id":"r1","permissions":"8"}]}`,
	}}
	b, err := New(Config{Token: "token", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.s.Client = &http.Client{Transport: stub}
	ctx := context.Background()

	c, err := b.sight.Channel(ctx, "c1")
	if err != nil || c.Parent != "" || len(c.Overwrites) != 2 || c.Overwrites[0].Deny != visibility.ViewChannel || !c.Overwrites[1].Member {
		t.Fatalf("c1: %+v, %v; want its two overwrites and no parent (a category is none)", c, err)
	}
	if th, err := b.sight.Channel(ctx, "t1"); err != nil || th.Parent != "c1" {
		t.Fatalf("t1: %+v, %v; want the thread's channel", th, err)
	}
	g, err := b.sight.Guild(ctx, "g1")
	if err != nil || g.Owner != "o" || len(g.Roles) != 2 || g.Roles[1].Permissions != visibility.Administrator {
		t.Fatalf("g1: %+v, %v", g, err)
	}
	if _, err := b.sight.Channel(ctx, "gone"); !errors.Is(err, visibility.ErrGone) {
		t.Fatalf("a deleted channel: %v, want ErrGone", err)
	}
	for range 3 {
		b.sight.Channel(ctx, "c1")
		b.sight.Channel(ctx, "t1")
		b.sight.Channel(ctx, "gone")
		b.sight.Guild(ctx, "g1")
	}
	for _, id := range []string{"c1", "t1", "gone", "g1"} {
		if stub.asked[id] != 1 {
			t.Errorf("%s was fetched %d times, want once", id, stub.asked[id])
		}
	}
	b.sight.forgetChannel("c1")
	b.sight.forgetGuild("g1")
	b.sight.Channel(ctx, "c1")
	b.sight.Guild(ctx, "g1")
	if stub.asked["c1"] != 2 || stub.asked["g1"] != 2 {
		t.Errorf("after an update, c1 and g1 were fetched %d and %d times, want twice", stub.asked["c1"], stub.asked["g1"])
	}

	// Discord failing is no answer, and is not kept.
	stub.down = true
	b.s.MaxRestRetries = 0
	if _, err := b.sight.Channel(ctx, "other"); err == nil || errors.Is(err, visibility.ErrGone) {
		t.Errorf("a channel while Discord fails: %v, want its error", err)
	}
	stub.down = false
	if _, err := b.sight.Channel(ctx, "other"); !errors.Is(err, visibility.ErrGone) {
		t.Errorf("the channel once Discord answers: %v", err)
	}
}

func TestSightStaysSmall(t *testing.T) {
	m := map[string]kept[int]{}
	now := time.Now()
	for i := range sightKept {
		keep(m, fmt.Sprint(i), kept[int]{at: now.Add(-2 * sightLife)})
	}
	keep(m, "fresh", kept[int]{at: now})
	if len(m) != 1 {
		t.Fatalf("%d kept after the stale ones made room, want 1", len(m))
	}
	for i := range sightKept - 1 {
		keep(m, fmt.Sprint(i), kept[int]{at: now})
	}
	keep(m, "one more", kept[int]{at: now})
	if len(m) != 1 {
		t.Fatalf("%d kept when all were fresh and it was full, want only the newest", len(m))
	}
}
