package store

import (
	"os/exec"
	"syscall"
	"testing"
)

// The check in the background runs at nice 10 (or lower, if the bot does).
func TestLowerPriority(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep to run:", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lowerPriority(cmd.Process.Pid)
	prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if nice := 20 - prio; nice < 10 { // the system call returns 20 - nice
		t.Fatalf("nice %d, want 10 or more", nice)
	}
}
