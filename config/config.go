// Package config reads the program's settings: a YAML file (config.yaml by
// default) with environment variables on top, so that secrets such as the
// Discord token never have to be written into a file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultPath is the configuration file read when none is named.
const DefaultPath = "config.yaml"

// Config is the whole configuration. See config.example.yaml for every key.
type Config struct {
	Discord  Discord  `yaml:"discord"`
	Database Database `yaml:"database"`
	Log      Log      `yaml:"log"`
}

// Discord holds the bot's credentials.
type Discord struct {
	Token         string `yaml:"token"`          // env DISCORD_TOKEN
	ApplicationID string `yaml:"application_id"` // env ICEAGE_APPLICATION_ID
	DevGuildID    string `yaml:"dev_guild_id"`   // register commands in one guild only, for quick testing
}

// Database says where the bbolt file lives.
type Database struct {
	// Path of the database file; a relative path is taken from the
	// directory of the configuration file. Env ICEAGE_DATABASE_PATH.
	Path string `yaml:"path"`
}

// Log sets up structured logging.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn or error; env ICEAGE_LOG_LEVEL
	Format string `yaml:"format"` // text or json; env ICEAGE_LOG_FORMAT
}

// Default returns the configuration used when the file sets nothing: the
// database iceage.db beside the configuration file, info-level text logs.
func Default() Config {
	return Config{
		Database: Database{Path: "iceage.db"},
		Log:      Log{Level: "info", Format: "text"},
	}
}

// Load reads the file at path (a missing file is not an error: the
// defaults apply), then the environment (getenv, usually os.Getenv), and
// checks the result. Unknown keys in the file are errors, so that a typo
// does not silently leave a setting at its default.
func Load(path string, getenv func(string) string) (Config, error) {
	c := Default()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Config{}, fmt.Errorf("config: reading %s: %w", path, err)
	default:
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		// An empty file decodes as io.EOF: no settings, the defaults stand.
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return Config{}, fmt.Errorf("config: %s: %w", path, err)
		}
		// A second document (after a stray "---") would be ignored, and
		// the settings in it silently left at their defaults.
		// An empty one, as after a trailing "---", is harmless.
		for {
			var more yaml.Node
			err := dec.Decode(&more)
			if errors.Is(err, io.EOF) {
				break
			}
			empty := len(more.Content) == 0 ||
				len(more.Content) == 1 && more.Content[0].Kind == yaml.ScalarNode && more.Content[0].Tag == "!!null"
			if err != nil || !empty {
				return Config{}, fmt.Errorf("config: %s holds more than one YAML document (a line \"---\"); put every setting in one", path)
			}
		}
	}
	for env, field := range map[string]*string{
		"DISCORD_TOKEN":         &c.Discord.Token,
		"ICEAGE_APPLICATION_ID": &c.Discord.ApplicationID,
		"ICEAGE_DEV_GUILD_ID":   &c.Discord.DevGuildID,
		"ICEAGE_DATABASE_PATH":  &c.Database.Path,
		"ICEAGE_LOG_LEVEL":      &c.Log.Level,
		"ICEAGE_LOG_FORMAT":     &c.Log.Format,
	} {
		if v := strings.TrimSpace(getenv(env)); v != "" {
			*field = v
		}
	}
	if c.Database.Path == "" {
		return Config{}, fmt.Errorf("config: database.path is empty: name the bbolt file, e.g. iceage.db")
	}
	if !filepath.IsAbs(c.Database.Path) {
		c.Database.Path = filepath.Join(filepath.Dir(path), c.Database.Path)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return Config{}, fmt.Errorf("config: log.level %q: want debug, info, warn or error", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return Config{}, fmt.Errorf("config: log.format %q: want text or json", c.Log.Format)
	}
	return c, nil
}
