package memstore

import (
	"slices"

	"github.com/iceagechess/iceage/play"
)

func (t *memTx) Recent(user string) (play.Recent, error) {
	r, ok := t.recent[user]
	if !ok {
		r = t.m.recent[user]
	}
	return cloneRecent(r), nil
}

func (t *memTx) PutRecent(user string, r play.Recent) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := play.CheckID("user id", user); err != nil {
		return err
	}
	t.recent[user] = cloneRecent(r)
	return nil
}

func cloneRecent(r play.Recent) play.Recent {
	r.Posts, r.Dropped = slices.Clone(r.Posts), slices.Clone(r.Dropped)
	return r
}
