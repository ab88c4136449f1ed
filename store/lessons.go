package store

import (
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// bucketLessons holds each user's progress in the lessons: user →
// play.LessonProgress. Made by the first progress saved: a file without
// it reads as no lesson done.
var bucketLessons = []byte("lessons")

// LessonProgress returns the user's progress in the lessons; zero if none.
func (t *txn) LessonProgress(user string) (play.LessonProgress, error) {
	var p play.LessonProgress
	b := t.tx.Bucket(bucketLessons)
	if b == nil || !validID(user) {
		return p, nil
	}
	if v := b.Get([]byte(user)); v != nil {
		return p, decode("lesson progress of "+user, v, &p)
	}
	return p, nil
}

// PutLessonProgress writes the user's progress in the lessons.
func (t *txn) PutLessonProgress(user string, p play.LessonProgress) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", user); err != nil {
		return err
	}
	v, err := encode(&p)
	if err != nil {
		return fmt.Errorf("store: encoding the lesson progress of %s: %w", user, err)
	}
	b, err := t.tx.CreateBucketIfNotExists(bucketLessons)
	if err != nil {
		return fmt.Errorf("store: the lesson progress: %w", err)
	}
	t.wrote = true
	return b.Put([]byte(user), v)
}
