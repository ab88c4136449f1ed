package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// The full-disk test: a store on a disk that fills up. Every write either
// succeeds (and is acknowledged) or fails with an error; none panics,
// reads go on, and after the disk has room again and the store is
// reopened, every acknowledged move is there and the file is sound.
//
// The disk is a tmpfs of 128 KB, where one can be mounted (as root), and
// apart from that a child process (this test binary again) runs with a
// file-size limit of 64 KB (RLIMIT_FSIZE), where growing the file fails
// with EFBIG as a full disk fails with ENOSPC; each is skipped, saying
// why, where it cannot be had.

// fullDiskSize is the room the store gets on a tmpfs, where commits
// cost nothing: a few thousand moves. fileSizeLimit is the file-size
// limit, where each commit costs an fsync of a real disk: a few hundred.
const (
	fullDiskSize  = 128 << 10
	fileSizeLimit = 64 << 10
)

const fullDiskChildEnv = "ICEAGE_STORE_FULL_DISK_CHILD"

func TestFullDisk(t *testing.T) {
	t.Run("on a full tmpfs", func(t *testing.T) {
		dir := t.TempDir()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", fullDiskSize)); err != nil {
			t.Skipf("cannot mount a tmpfs here (%v); the file-size limit stands in for it", err)
		}
		t.Cleanup(func() {
			if err := syscall.Unmount(dir, 0); err != nil {
				t.Errorf("unmounting the tmpfs: %v", err)
			}
		})
		path := filepath.Join(dir, "iceage.db")
		s, err := Open(path, &Options{Alone: true})
		if err != nil {
			t.Fatal(err)
		}
		acks, fails := fillDisk(t, s, nil)
		checkFullDiskErrors(t, fails, syscall.ENOSPC)
		if err := s.Close(); err != nil {
			t.Logf("closing the store on a full disk: %v", err)
		}
		// Room again: the same file, on the same mount, grown.
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size=8m"); err != nil {
			t.Fatalf("growing the tmpfs: %v", err)
		}
		checkAcks(t, path, acks)
	})
	t.Run("under a file-size limit", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "iceage.db")
		cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), fullDiskChildEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the child: %v\n%s", err, stderr.String())
		}
		var acks []fullDiskAck
		var fails []error
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 4 && f[0] == "ack":
				ply, _ := strconv.Atoi(f[2])
				acks = append(acks, fullDiskAck{f[1], ply, f[3]})
			case len(f) > 1 && f[0] == "fail":
				fails = append(fails, errors.New(strings.Join(f[1:], " ")))
			case len(f) > 0 && f[0] == "skip":
				t.Skip("cannot limit the file size here:", strings.Join(f[1:], " "))
			}
		}
		checkFullDiskErrors(t, fails, syscall.EFBIG)
		checkAcks(t, path, acks)
	})
}

// TestFullDiskChild fills a disk under a file-size limit, for TestFullDisk.
func TestFullDiskChild(t *testing.T) {
	path := os.Getenv(fullDiskChildEnv)
	if path == "" {
		t.Skip("run by TestFullDisk in a child process")
	}
	// Past the limit a write raises SIGXFSZ, which ends the process
	// unless ignored; ignored, the write fails with EFBIG.
	signal.Ignore(syscall.SIGXFSZ)
	s, err := Open(path, &Options{Alone: true})
	if err != nil {
		t.Fatal(err)
	}
	lim := syscall.Rlimit{Cur: fileSizeLimit, Max: fileSizeLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Println("skip", err)
		return
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fillDisk(t, s, func(a fullDiskAck, err error) {
		if err != nil {
			fmt.Fprintln(w, "fail", err)
		} else {
			fmt.Fprintln(w, "ack", a.channel, a.ply, a.uci)
		}
	})
	s.Close()
}

// fullDiskAck is a move the store acknowledged.
type fullDiskAck struct {
	channel string
	ply     int
	uci     string
}

// fillDisk plays the reference games, one new game after another, until
// writes fail, and then goes on until 30 have failed, as a bot would go on
// answering clicks. It checks as it goes that a failed write leaves the
// game as it was, and reports each acknowledgement or failure to report
// if not nil.
func fillDisk(t *testing.T, s *Store, report func(fullDiskAck, error)) (acks []fullDiskAck, fails []error) {
	t.Helper()
	refs := loadRefGames(t)
	note := func(a fullDiskAck, err error) {
		if err != nil {
			fails = append(fails, err)
		} else {
			acks = append(acks, a)
		}
		if report != nil {
			report(a, err)
		}
	}
	svc := service(s)
	deadline := time.Now().Add(time.Minute)
	for round := 0; len(fails) < 30; round++ {
		if time.Now().After(deadline) {
			t.Fatalf("the disk did not fill within a minute: %d moves acknowledged", len(acks))
		}
		ch := fmt.Sprint("full-", round)
		_, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: ch, White: play.Seat{ID: "w-" + ch}, Black: play.Seat{ID: "b-" + ch},
			DaysPerMove: 1, At: t0})
		if err != nil {
			note(fullDiskAck{channel: ch}, err)
			continue
		}
		moves := refs[round%len(refs)].moves
		for ply := 0; ply < min(len(moves)-1, 40) && len(fails) < 30; {
			g, err := svc.GameIn(ctx, ch)
			if err != nil {
				t.Fatalf("reading game %s on a full disk: %v", ch, err)
			}
			if g.Ply() != ply {
				t.Fatalf("game %s has %d moves, %d were acknowledged", ch, g.Ply(), ply)
			}
			_, err = svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: t0.Add(time.Duration(ply+1) * time.Minute)}, moves[ply])
			note(fullDiskAck{ch, ply + 1, moves[ply]}, err)
			if err != nil {
				break // on to a new game, as other players would
			}
			ply++
		}
	}
	return acks, fails
}

// checkFullDiskErrors checks that the failed writes failed for want.
func checkFullDiskErrors(t *testing.T, fails []error, want syscall.Errno) {
	t.Helper()
	if len(fails) == 0 {
		t.Fatal("no write failed")
	}
	for _, err := range fails {
		if !errors.Is(err, want) && !strings.Contains(err.Error(), want.Error()) {
			t.Errorf("a write failed with %v, want %v", err, want)
		}
	}
}

// checkAcks reopens the store at path and checks that every acknowledged
// move is there, that the file passes the damage check, and that it takes
// writes again.
func checkAcks(t *testing.T, path string, acks []fullDiskAck) {
	t.Helper()
	if len(acks) == 0 {
		t.Fatal("nothing was acknowledged before the disk filled")
	}
	s := openAt(t, path, nil)
	svc := service(s)
	last := map[string]int{}
	for _, a := range acks {
		g, err := svc.GameIn(ctx, a.channel)
		if err != nil {
			t.Fatalf("game %s, with acknowledged moves, is gone: %v", a.channel, err)
		}
		if g.Ply() < a.ply || g.Moves[a.ply-1].UCI != a.uci {
			t.Fatalf("game %s lost its acknowledged move %d (%s): it has %d moves", a.channel, a.ply, a.uci, g.Ply())
		}
		last[a.channel] = max(last[a.channel], a.ply)
	}
	for ch, n := range last {
		if g, _ := svc.GameIn(ctx, ch); g.Ply() != n {
			t.Errorf("game %s has %d moves, %d were acknowledged: a failed write was kept", ch, g.Ply(), n)
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("after", play.Prefs{}) }); err != nil {
		t.Fatalf("with room again, a write fails: %v", err)
	}
	t.Logf("%d moves acknowledged in %d games, all there after reopening", len(acks), len(last))
}
