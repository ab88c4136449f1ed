package pgstore

import "github.com/iceagechess/iceage/play"

// LessonProgress returns the user's progress in the lessons; zero if none
// was saved.
func (t *txn) LessonProgress(user string) (play.LessonProgress, error) {
	return getKeyed[play.LessonProgress](t, lessonsTable, user, "lesson progress of "+user)
}

// PutLessonProgress writes the user's progress in the lessons.
func (t *txn) PutLessonProgress(user string, p play.LessonProgress) error {
	return putKeyed(t, lessonsTable, user, "lesson progress of "+user, &p)
}
