package bot

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestBucketOf(t *testing.T) {
	const api = "https://discord.com/api/v9/"
	cases := []struct{ url, want string }{
		{api + "channels/42/messages", api + "channels/42/messages"},
		{api + "channels/42/messages/4242", api + "channels/42/messages/:id"},
		{api + "interactions/1001/tokenA/callback", api + "interactions/:id/:token/callback#"},
		{api + "webhooks/77/tokenA/messages/@original", api + "webhooks/:id/:token/messages/@original#"},
		{api + "webhooks/77/tokenA?wait=true", api + "webhooks/:id/:token#"},
	}
	for _, c := range cases {
		got := bucketOf(c.url)
		if strings.HasSuffix(c.want, "#") {
			route, _, _ := strings.Cut(got, "#")
			if route+"#" != c.want || strings.Contains(got, "tokenA") || strings.Contains(got, "1001") {
				t.Errorf("bucketOf(%s) = %s, want %s and a stripe", c.url, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("bucketOf(%s) = %s, want %s", c.url, got, c.want)
		}
	}
	// Many interactions share a bounded number of buckets.
	seen := map[string]bool{}
	for i := range 10000 {
		seen[bucketOf(fmt.Sprintf("%sinteractions/%d/token%d/callback", api, i, i))] = true
	}
	if len(seen) > bucketStripes {
		t.Errorf("%d buckets for 10000 interactions, want at most %d", len(seen), bucketStripes)
	}
}

func TestRedact(t *testing.T) {
	secret := "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiYw"
	rest := &discordgo.RESTError{Message: &discordgo.APIErrorMessage{Code: 10062}}
	for _, err := range []error{
		&url.Error{Op: "Post", URL: "https://discord.com/api/v9/interactions/123/" + secret + "/callback", Err: errors.New("context deadline exceeded")},
		fmt.Errorf("answering: %w", &url.Error{Op: "Patch", URL: "https://discord.com/api/v9/webhooks/9/" + secret + "/messages/@original", Err: rest}),
		discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{}, URL: "https://discord.com/api/v9/webhooks/9/" + secret}},
	} {
		got := redact(err)
		if strings.Contains(got.Error(), secret) || !strings.Contains(got.Error(), ":token") {
			t.Errorf("redact(%v) = %v", err, got)
		}
		if !errors.Is(got, err) {
			t.Errorf("redact(%v) lost the error it wraps", err)
		}
	}
	var re *discordgo.RESTError
	if !errors.As(redact(fmt.Errorf("x: %w /webhooks/1/%s", rest, secret)), &re) || re.Message.Code != 10062 {
		t.Error("errors.As does not find the REST error through redact")
	}
	if redact(nil) != nil {
		t.Error("redact(nil) is not nil")
	}
}

func TestFit(t *testing.T) {
	more := func(n int) string { return fmt.Sprintf("+%d", n) }
	cases := []struct {
		head  string
		parts []string
		max   int
		left  int
		want  string
	}{
		{"h", []string{"a", "b"}, 100, 0, "h|a|b"},
		{"h", []string{"a", "b"}, 100, 3, "h|a|b|+3"},
		{"h", []string{"**aa**", "**bb**"}, 12, 0, "h|**aa**|+1"},
		{"h", []string{"<t:1>", "<t:2>", "<t:3>"}, 10, 0, "h|<t:1>|+2"},
		{"h", []string{"<t:1>", "<t:2>", "<t:3>"}, 9, 0, "h|+3"},
		{"", []string{"abc"}, 2, 0, "+1"},
	}
	for _, c := range cases {
		if got := fit(c.head, c.parts, "|", c.max, c.left, more); got != c.want {
			t.Errorf("fit(%q, %q, %d, %d) = %q, want %q", c.head, c.parts, c.max, c.left, got, c.want)
		}
	}
}

// BenchmarkRateLimitBuckets compares discordgo's buckets for the callbacks
// of distinct interactions keyed by URL, as discordgo keys its own calls,
// and by route (bucketOf): the memory each interaction leaves behind.
func BenchmarkRateLimitBuckets(b *testing.B) {
	for _, keying := range []struct {
		name string
		key  func(string) string
	}{{"url", func(u string) string { return u }}, {"route", bucketOf}} {
		b.Run(keying.name, func(b *testing.B) {
			rl := discordgo.NewRatelimiter()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				u := fmt.Sprintf("https://discord.com/api/v9/interactions/%d/token%d/callback", 1000000000000000+i, i)
				rl.LockBucket(keying.key(u)).Release(nil)
			}
			rl.Lock()
			n := reflect.ValueOf(rl).Elem().FieldByName("buckets").Len()
			rl.Unlock()
			b.ReportMetric(float64(n), "buckets")
		})
	}
}
