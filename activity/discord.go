package activity

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// What the server asks Discord: the OAuth2 token endpoint (a code for an
// access token), /users/@me (whose token it is), and the Activity's
// instances (who is in one), each answer read up to maxAnswer bytes.

const (
	// maxAnswer is the most of one of Discord's answers read.
	maxAnswer = 64 << 10
	// identityLife is how long an access token's user is remembered
	// without asking Discord again; a revoked token works that long.
	identityLife = 5 * time.Minute
	// instanceLife is how long an instance's users are remembered: one
	// who left may still act that long.
	instanceLife = 10 * time.Second
	// maxCached bounds each cache: past it, the oldest half is dropped.
	maxCached = 10_000
)

// errBusy: too many requests to Discord are in flight.
var errBusy = errors.New("activity: too many requests to Discord at once")

// errRefused is Discord's refusal of a token, a code or an instance: the
// asker's fault, not the server's.
var errRefused = errors.New("activity: Discord refused")

// discord asks Discord, and remembers answers for a while.
type discord struct {
	base         string // ends in "/"
	clientID     string
	clientSecret string
	botToken     string
	client       *http.Client
	now          func() time.Time
	// asking bounds the requests to Discord in flight at once: past it,
	// a request is refused at once (errBusy), so that a stranger who
	// floods /api/token holds no more than these.
	asking chan struct{}

	identities cache[identity]
	instances  cache[instance]
	// members are the names servers show for their members, by
	// "guild/user" (people.go).
	members cache[string]
	// threads are each server's active threads, by parent channel
	// (threads.go).
	threads cache[map[string][]string]
}

// identity is the user an access token belongs to.
type identity struct {
	User   string
	Name   string
	Locale string
}

// instance is where an Activity runs and who is in it.
type instance struct {
	Channel string
	Guild   string
	Users   []string
}

func newDiscord(base, clientID, clientSecret, botToken string, client *http.Client, now func() time.Time) *discord {
	if base == "" {
		base = "https://discord.com/"
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return &discord{base: base, clientID: clientID, clientSecret: clientSecret, botToken: botToken, client: client, now: now,
		asking: make(chan struct{}, 16)}
}

// ask sends req and decodes its JSON answer into v; a 4xx is errRefused.
func (d *discord) ask(req *http.Request, v any) error {
	select {
	case d.asking <- struct{}{}:
	default:
		// A flood waits for nothing and costs nothing more: the user
		// tries again in a moment.
		return errBusy
	}
	defer func() { <-d.asking }()
	resp, err := d.client.Do(req) // #nosec G704 -- Discord's address is the configuration's; what a request adds to it is checked (validInstance)
	if err != nil {
		return fmt.Errorf("activity: asking Discord %s: %w", req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("activity: reading Discord's answer to %s: %w", req.URL.Path, err)
	}
	switch {
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s answered %s", errRefused, req.URL.Path, resp.Status)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("activity: Discord answered %s to %s", resp.Status, req.URL.Path)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("activity: Discord's answer to %s: %w", req.URL.Path, err)
	}
	return nil
}

// exchange trades an authorization code from the SDK's authorize for an
// access token, with the client secret.
func (d *discord) exchange(ctx context.Context, code string) (string, error) {
	form := url.Values{"client_id": {d.clientID}, "client_secret": {d.clientSecret}, "grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.base+"api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := d.ask(req, &tok); err != nil {
		return "", err
	}
	if !validToken(tok.AccessToken) {
		return "", errors.New("activity: the token exchange gave no access token")
	}
	return tok.AccessToken, nil
}

// identify returns whose access token it is, from memory when it was
// asked lately. The memory is keyed by the token's hash: it holds no
// token.
func (d *discord) identify(ctx context.Context, token string) (identity, error) {
	key := sha256.Sum256([]byte(token))
	k := string(key[:])
	if id, ok := d.identities.get(k, d.now()); ok {
		return id, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"api/v10/users/@me", nil)
	if err != nil {
		return identity{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var me struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
		Locale     string `json:"locale"`
	}
	if err := d.ask(req, &me); err != nil {
		return identity{}, err
	}
	if !snowflake(me.ID) {
		return identity{}, fmt.Errorf("activity: /users/@me gave no user id (%q)", me.ID)
	}
	id := identity{User: me.ID, Name: me.GlobalName, Locale: me.Locale}
	if id.Name == "" {
		id.Name = me.Username
	}
	d.identities.put(k, id, d.now().Add(identityLife))
	return id, nil
}

// instance returns where an Activity instance runs and who is in it, with
// the bot's token.
func (d *discord) instance(ctx context.Context, id string) (instance, error) {
	if in, ok := d.instances.get(id, d.now()); ok {
		return in, nil
	}
	// #nosec G704 -- id has the shape of Discord's instance ids (validInstance): digits and dashes
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"api/v10/applications/"+d.clientID+"/activity-instances/"+url.PathEscape(id), nil)
	if err != nil {
		return instance{}, err
	}
	req.Header.Set("Authorization", "Bot "+d.botToken)
	var got struct {
		InstanceID string `json:"instance_id"`
		Location   struct {
			ChannelID string `json:"channel_id"`
			GuildID   string `json:"guild_id"`
		} `json:"location"`
		Users []string `json:"users"`
	}
	if err := d.ask(req, &got); err != nil {
		return instance{}, err
	}
	if got.InstanceID != id || !snowflake(got.Location.ChannelID) {
		return instance{}, fmt.Errorf("activity: Discord described instance %q as %q in channel %q", id, got.InstanceID, got.Location.ChannelID)
	}
	in := instance{Channel: got.Location.ChannelID, Guild: got.Location.GuildID, Users: got.Users}
	d.instances.put(id, in, d.now().Add(instanceLife))
	return in, nil
}

// cache remembers values until they expire, at most maxCached of them.
type cache[V any] struct {
	mu sync.Mutex
	m  map[string]cached[V]
}

type cached[V any] struct {
	v   V
	exp time.Time
}

func (c *cache[V]) get(k string, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !now.Before(e.exp) {
		var zero V
		return zero, false
	}
	return e.v, true
}

func (c *cache[V]) put(k string, v V, exp time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cached[V]{}
	}
	if len(c.m) >= maxCached {
		// Drop entries until half is left: map order is random enough,
		// and every entry comes back by asking Discord again.
		for key := range c.m {
			if len(c.m) < maxCached/2 {
				break
			}
			delete(c.m, key)
		}
	}
	c.m[k] = cached[V]{v: v, exp: exp}
}
