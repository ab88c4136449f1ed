package tournament

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/play"
)

// KindTask is the kind of the outbox items that move a tournament on:
// a start at its time, a round over, a round's closing time. They are
// written in the transaction that makes them due, so that no tournament
// is left waiting, and a front end delivers them (Runner.Do the Task).
const KindTask = "tournament"

// Task is what an outbox item of KindTask asks.
type Task struct {
	Tournament uint64 `json:"t"`
	What       string `json:"what"` // TaskStart, TaskAdvance or TaskClose
	Round      int    `json:"round,omitempty"`
}

const (
	TaskStart   = "start"
	TaskAdvance = "advance"
	TaskClose   = "close"
	// TaskGames starts the games of the current round that have not
	// started (their threads could not be made, say), a little after the
	// round was paired, so that a front end that started them at once is
	// not raced.
	TaskGames = "games"
)

// gamesGrace is how long TaskGames waits after the round is paired.
const gamesGrace = 2 * time.Minute

func (k Task) item(due, now time.Time) play.OutboxItem {
	body, _ := json.Marshal(k) // a struct of numbers and a word: cannot fail
	return play.OutboxItem{
		Key:  fmt.Sprintf("tournament:%d:%s:%d", k.Tournament, k.What, k.Round),
		Kind: KindTask, Body: body, Due: due, Created: now,
	}
}

// DecodeTask reads an outbox item of KindTask.
func DecodeTask(it play.OutboxItem) (Task, error) {
	var k Task
	if it.Kind != KindTask {
		return k, fmt.Errorf("tournament: an outbox item of kind %q is no task", it.Kind)
	}
	if err := json.Unmarshal(it.Body, &k); err != nil || k.Tournament == 0 {
		return k, fmt.Errorf("tournament: outbox item %q is no task: %v", it.Key, err)
	}
	return k, nil
}

// tasks writes what the tournament's state makes due: its start at its
// time, the current round's closing, or the next round once this one is
// over. Keys repeat for the same task, so writing them again is harmless.
func tasks(tx play.Tx, t *Tournament, now time.Time) error {
	var items []play.OutboxItem
	switch t.Status {
	case SigningUp:
		if !t.StartAt.IsZero() {
			items = append(items, Task{Tournament: t.ID, What: TaskStart}.item(t.StartAt, now))
		}
	case Running:
		k := len(t.Played)
		if t.RoundOver() {
			items = append(items, Task{Tournament: t.ID, What: TaskAdvance, Round: k}.item(now, now))
			break
		}
		if c := t.Played[k-1].Closes; !c.IsZero() {
			items = append(items, Task{Tournament: t.ID, What: TaskClose, Round: k}.item(c, now))
		}
		for _, b := range t.Played[k-1].Boards {
			if b.GameID == 0 && b.Outcome == Pending {
				items = append(items, Task{Tournament: t.ID, What: TaskGames, Round: k}.item(t.Played[k-1].Started.Add(gamesGrace), now))
				break
			}
		}
	}
	if len(items) == 0 {
		return nil
	}
	return tx.PutOutbox(items...)
}
