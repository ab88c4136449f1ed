package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoad(t *testing.T) {
	t.Run("a missing file gives the defaults, the database beside it", func(t *testing.T) {
		dir := t.TempDir()
		c, err := Load(filepath.Join(dir, "config.yaml"), env(nil))
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "iceage.db"); c.Database.Path != want {
			t.Errorf("database path %q, want %q", c.Database.Path, want)
		}
		if c.Log.Level != "info" || c.Log.Format != "text" {
			t.Errorf("log %+v, want info/text", c.Log)
		}
	})
	t.Run("an empty file gives the defaults", func(t *testing.T) {
		if _, err := Load(write(t, ""), env(nil)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("document markers around the one document are allowed", func(t *testing.T) {
		if _, err := Load(write(t, "---\ndatabase:\n  path: a.db\n---\n"), env(nil)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("the example file loads", func(t *testing.T) {
		data, err := os.ReadFile("../config.example.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(write(t, string(data)), env(nil)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("file values are read and the environment wins", func(t *testing.T) {
		path := write(t, "discord:\n  token: from-file\n  guild_ids: [\"42\"]\ndatabase:\n  path: /var/lib/iceage/games.db\nlog:\n  level: debug\nplay:\n  default_days: 7\n")
		c, err := Load(path, env(map[string]string{"DISCORD_TOKEN": "from-env", "ICEAGE_LOG_FORMAT": "json", "ICEAGE_HTTP_LISTEN": "127.0.0.1:9090"}))
		if err != nil {
			t.Fatal(err)
		}
		if c.Discord.Token != "from-env" || fmt.Sprint(c.Discord.GuildIDs) != "[42]" || c.Database.Path != "/var/lib/iceage/games.db" ||
			c.Log.Level != "debug" || c.Log.Format != "json" || c.Play.DefaultDays != 7 || c.HTTP.Listen != "127.0.0.1:9090" {
			t.Errorf("got %+v", c)
		}
	})
	for _, bad := range []struct{ name, text, want string }{
		{"an unknown key is an error", "databse:\n  path: x.db\n", "databse"},
		{"a bad log level is an error", "log:\n  level: loud\n", "log.level"},
		{"a bad log format is an error", "log:\n  format: xml\n", "log.format"},
		{"an empty database path is an error", "database:\n  path: \"\"\n", "database.path"},
		{"a guild id that is no number is an error", "discord:\n  guild_ids: [abc]\n", "discord.guild_ids"},
		{"a time control nobody offers is an error", "play:\n  allowed_days: [4]\n", "play.allowed_days"},
		{"a default outside the allowed days is an error", "play:\n  allowed_days: [1, 2]\n  default_days: 3\n", "play.default_days"},
		{"a reminder of zero hours is an error", "play:\n  reminder_hours: [0]\n", "play.reminder_hours"},
		{"an unknown language is an error", "language: de\n", "language"},
		{"an unknown theme is an error", "theme: neon\n", "theme"},
		{"a listener without a port is an error", "http:\n  listen: localhost\n", "http.listen"},
		{"a value of the wrong type names its key", "play:\n  default_days: soon\n", "default_days"},
		{"malformed YAML is an error", "discord: [\n", "config"},
		{"a second YAML document is an error", "database:\n  path: a.db\n---\nlog:\n  level: debug\n", "more than one YAML document"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			_, err := Load(write(t, bad.text), env(nil))
			if err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("error %v, want one mentioning %q", err, bad.want)
			}
		})
	}
}

func TestTheOperatorsTokenFileAndTheConnectionCap(t *testing.T) {
	t.Run("by default the token is kept beside the database, and 256 connections are held", func(t *testing.T) {
		dir := t.TempDir()
		c, err := Load(write(t, "database:\n  path: "+filepath.Join(dir, "games.db")+"\n"), env(nil))
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, DefaultTokenFile); c.HTTP.TokenFile != want {
			t.Errorf("token file %q, want %q", c.HTTP.TokenFile, want)
		}
		if c.HTTP.InteractionsConnections != 256 {
			t.Errorf("%d interactions connections, want 256", c.HTTP.InteractionsConnections)
		}
	})
	t.Run("the file and the environment set them, a relative path beside the configuration", func(t *testing.T) {
		path := write(t, "http:\n  token_file: secrets/ops.token\n  interactions_connections: 32\n")
		c, err := Load(path, env(nil))
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(filepath.Dir(path), "secrets", "ops.token"); c.HTTP.TokenFile != want || c.HTTP.InteractionsConnections != 32 {
			t.Errorf("token file %q, %d connections; want %q, 32", c.HTTP.TokenFile, c.HTTP.InteractionsConnections, want)
		}
		c, err = Load(path, env(map[string]string{"ICEAGE_HTTP_TOKEN_FILE": "/run/iceage/token", "ICEAGE_INTERACTIONS_CONNECTIONS": "1000"}))
		if err != nil || c.HTTP.TokenFile != "/run/iceage/token" || c.HTTP.InteractionsConnections != 1000 {
			t.Errorf("token file %q, %d connections, %v; want the environment's", c.HTTP.TokenFile, c.HTTP.InteractionsConnections, err)
		}
	})
	for _, bad := range []struct{ file, env string }{{"http:\n  interactions_connections: 0\n", ""}, {"http:\n  interactions_connections: -5\n", ""}, {"", "lots"}, {"", "200000"}} {
		_, err := Load(write(t, bad.file), env(map[string]string{"ICEAGE_INTERACTIONS_CONNECTIONS": bad.env}))
		if err == nil || !strings.Contains(err.Error(), "CONNECTIONS") && !strings.Contains(err.Error(), "http.interactions_connections") {
			t.Errorf("%q %q: %v, want a refusal naming the setting", bad.file, bad.env, err)
		}
	}
}

func TestDatabaseAndShards(t *testing.T) {
	t.Run("bbolt is the default driver", func(t *testing.T) {
		c, err := Load(write(t, ""), env(nil))
		if err != nil || c.Database.Driver != DriverBolt {
			t.Fatalf("driver %q, %v; want bbolt", c.Database.Driver, err)
		}
	})
	t.Run("a URL from the environment chooses postgres", func(t *testing.T) {
		url := "postgres://u:p@db:5432/iceage"
		c, err := Load(write(t, ""), env(map[string]string{"ICEAGE_DATABASE_URL": url}))
		if err != nil || c.Database.Driver != DriverPostgres || c.Database.URL != url {
			t.Fatalf("database %+v, %v; want postgres at %s", c.Database, err, url)
		}
	})
	t.Run("postgres without a URL is refused, naming the variable", func(t *testing.T) {
		_, err := Load(write(t, "database:\n  driver: postgres\n"), env(nil))
		if err == nil || !strings.Contains(err.Error(), "ICEAGE_DATABASE_URL") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an unknown driver is refused", func(t *testing.T) {
		if _, err := Load(write(t, "database:\n  driver: sqlite\n"), env(nil)); err == nil || !strings.Contains(err.Error(), "database.driver") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("shards come from the file and the environment", func(t *testing.T) {
		c, err := Load(write(t, "discord:\n  shard_id: 1\n  shard_count: 4\n"), env(map[string]string{"ICEAGE_SHARD_ID": "3"}))
		if err != nil || c.Discord.ShardID != 3 || c.Discord.ShardCount != 4 {
			t.Fatalf("shard %d of %d, %v; want 3 of 4", c.Discord.ShardID, c.Discord.ShardCount, err)
		}
	})
	for _, bad := range []string{"discord:\n  shard_id: 4\n  shard_count: 4\n", "discord:\n  shard_id: 1\n", "discord:\n  public_key: nothex\n"} {
		if _, err := Load(write(t, bad), env(nil)); err == nil {
			t.Errorf("%q loaded", bad)
		}
	}
	if _, err := Load(write(t, ""), env(map[string]string{"ICEAGE_SHARD_COUNT": "two"})); err == nil {
		t.Error("ICEAGE_SHARD_COUNT=two loaded")
	}
}

// An attacker on the network reaches whatever is not on loopback: the
// configurations that would expose the operators' listener, or the
// token, are refused at start with the key that must change.
func TestUnsafeCombinationsAreRefused(t *testing.T) {
	const key = "0000000000000000000000000000000000000000000000000000000000000000"
	for _, c := range []struct {
		name, file string
		env        map[string]string
		wantKey    string // "" means it loads
	}{
		{"operations on loopback need no token", "http:\n  listen: 127.0.0.1:8080\n", nil, ""},
		{"operations on localhost need no token", "http:\n  listen: localhost:8080\n", nil, ""},
		{"operations on IPv6 loopback need no token", "http:\n  listen: \"[::1]:8080\"\n", nil, ""},
		{"operations on every address without a token", "http:\n  listen: \":8080\"\n", nil, "http.token"},
		{"operations on a public address without a token", "http:\n  listen: 203.0.113.5:8080\n", nil, "http.token"},
		{"operations on 0.0.0.0 without a token", "", map[string]string{"ICEAGE_HTTP_LISTEN": "0.0.0.0:8080"}, "http.token"},
		{"operations off loopback with a token", "http:\n  listen: \":8080\"\n", map[string]string{"ICEAGE_HTTP_TOKEN": "a-long-random-secret-0123456789"}, ""},
		{"a short token", "http:\n  listen: \":8080\"\n  token: abc\n", nil, "http.token"},
		{"a public key without the interactions listener", "discord:\n  public_key: " + key + "\nhttp:\n  listen: 127.0.0.1:8080\n", nil, "http.interactions"},
		{"the interactions listener without a public key", "http:\n  interactions: \":8443\"\n", nil, "discord.public_key"},
		{"interactions on the operators' listener", "discord:\n  public_key: " + key + "\nhttp:\n  listen: 127.0.0.1:8080\n  interactions: 127.0.0.1:8080\n", nil, "http.interactions"},
		{"interactions apart from operations", "discord:\n  public_key: " + key + "\nhttp:\n  listen: 127.0.0.1:8080\n  interactions: \":8443\"\n", nil, ""},
		{"an api_url over http to another machine", "discord:\n  api_url: http://relay.example:8080/\n", nil, "discord.api_url"},
		{"an api_url over http to loopback", "discord:\n  api_url: http://127.0.0.1:8081/\n", nil, ""},
		{"an api_url over https", "discord:\n  api_url: https://relay.example/\n", nil, ""},
		{"a negative limit", "limits:\n  open_challenges: -1\n", nil, "limits.open_challenges"},
		{"negative posts a minute", "limits:\n  posts_per_minute: -1\n", nil, "limits.posts_per_minute"},
		{"a tournament of two", "limits:\n  tournament_players: 2\n", nil, "limits.tournament_players"},
		{"a wait to challenge again over a day", "limits:\n  challenge_again_minutes: 1441\n", nil, "limits.challenge_again_minutes"},
		{"a client id without its secret", "discord:\n  client_id: \"1234567890\"\n", nil, "discord.client_secret"},
		{"a client secret without its id", "", map[string]string{"ICEAGE_DISCORD_CLIENT_SECRET": "s3cret"}, "discord.client_id"},
		{"a client id that is no number", "discord:\n  client_id: iceage\n  client_secret: s\n", nil, "discord.client_id"},
		{"a client id in the file, its secret in the environment", "discord:\n  client_id: \"1234567890\"\n", map[string]string{"ICEAGE_DISCORD_CLIENT_SECRET": "s3cret"}, ""},
		{"limits turned off", "limits:\n  open_challenges: 0\n  gif_seconds: 0\n", nil, ""},
		{"the web listener with its public address", "", map[string]string{"ICEAGE_WEB_LISTEN": ":8090", "ICEAGE_PUBLIC_URL": "https://chess.example.org/"}, ""},
		{"the web listener without its public address", "web:\n  listen: \":8090\"\n", nil, "web.public_url"},
		{"a public address with a query", "", map[string]string{"ICEAGE_WEB_LISTEN": ":8090", "ICEAGE_PUBLIC_URL": "https://chess.example.org/?a=b"}, "web.public_url"},
		{"a public address that is no web address", "", map[string]string{"ICEAGE_WEB_LISTEN": ":8090", "ICEAGE_PUBLIC_URL": "javascript:alert(1)"}, "web.public_url"},
		{"a public address below the host's root", "", map[string]string{"ICEAGE_WEB_LISTEN": ":8090", "ICEAGE_PUBLIC_URL": "https://example.org/chess/"}, "web.public_url"},
		{"the web listener without a port", "", map[string]string{"ICEAGE_WEB_LISTEN": "chess", "ICEAGE_PUBLIC_URL": "https://chess.example.org/"}, "web.listen"},
		{"the web listener on the operators' address", "http:\n  listen: 127.0.0.1:8080\nweb:\n  listen: 127.0.0.1:8080\n  public_url: http://127.0.0.1:8080/\n", nil, "web.listen"},
		{"no web connections", "web:\n  connections: 0\n", nil, "web.connections"},
		{"no requests for a viewer", "web:\n  client_requests: 0\n", nil, "web.client_requests"},
		{"no streams for a viewer", "", map[string]string{"ICEAGE_WEB_CLIENT_STREAMS": "0"}, "web.client_streams"},
		{"trusted proxies by address and network", "web:\n  trusted_proxies: [127.0.0.1, \"10.0.0.0/8\", \"fd00::/8\"]\n", nil, ""},
		{"trusted proxies from the environment", "", map[string]string{"ICEAGE_WEB_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}, ""},
		{"a trusted proxy by name", "web:\n  trusted_proxies: [proxy.example]\n", nil, "web.trusted_proxies"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(write(t, c.file), env(c.env))
			switch {
			case c.wantKey == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.wantKey != "" && (err == nil || !strings.Contains(err.Error(), c.wantKey)):
				t.Fatalf("got %v; want a refusal naming %s", err, c.wantKey)
			}
		})
	}
}

// TestAViewersCapsByDefaultAndFromTheEnvironment: 32 requests and 64
// event streams a viewer unless set, a proxy on loopback trusted; the
// proxies named in the environment are read one by one.
func TestAViewersCapsByDefaultAndFromTheEnvironment(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "none.yaml"), func(string) string { return "" })
	if err != nil || c.Web.ClientRequests != 32 || c.Web.ClientStreams != 64 || strings.Join(c.Web.TrustedProxies, " ") != "127.0.0.0/8 ::1" {
		t.Fatalf("by default: %d requests, %d streams, proxies %v, %v; want 32, 64, loopback", c.Web.ClientRequests, c.Web.ClientStreams, c.Web.TrustedProxies, err)
	}
	c, err = Load(filepath.Join(t.TempDir(), "none.yaml"), env(map[string]string{"ICEAGE_WEB_CLIENT_REQUESTS": "8", "ICEAGE_WEB_CLIENT_STREAMS": "16", "ICEAGE_WEB_TRUSTED_PROXIES": "127.0.0.1,::1"}))
	if err != nil || c.Web.ClientRequests != 8 || c.Web.ClientStreams != 16 || len(c.Web.TrustedProxies) != 2 {
		t.Fatalf("from the environment: %d requests, %d streams, proxies %v, %v; want 8, 16, two", c.Web.ClientRequests, c.Web.ClientStreams, c.Web.TrustedProxies, err)
	}
}
