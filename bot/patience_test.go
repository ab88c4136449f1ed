package bot_test

import (
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// patience is how long a test waits for what the bot does before it
// gives up: d, times fakediscord.Slowdown under the race detector, which
// slows the bot as much as it slows the fake's response window. Every
// wait of these tests for something to happen, and every pause that lets
// the bot's background work settle before a test checks that something
// did not happen, goes through it, so that a busy machine under -race
// fails none of them for being slow.
func patience(d time.Duration) time.Duration { return fakediscord.Slowdown * d }
