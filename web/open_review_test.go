package web

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOpenKeepsTokenOffCommandLine: the browser is opened on a file only
// the player can read, which leads to the address with the token; the
// token itself is never an argument of the opener (nor of the browser it
// starts), where any user of the machine reads it (ps, /proc/PID/cmdline)
// for as long as the browser runs, and then opens the table.
func TestOpenKeepsTokenOffCommandLine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake xdg-open is a shell script")
	}
	bin := t.TempDir()
	got := filepath.Join(bin, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + got + ".tmp && mv " + got + ".tmp " + got + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	t.Setenv("DISPLAY", ":0")
	const token = "0123456789abcdef0123456789abcdef"
	url := "http://127.0.0.1:4242/?t=" + token
	if err := Open(url); err != nil {
		t.Fatal(err)
	}
	var args []byte
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(got)
		if err == nil {
			args = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the opener did not run")
		}
	}
	arg := strings.TrimSpace(string(args))
	if strings.Contains(arg, token) {
		t.Fatalf("the opener's command line carries the token: %q", arg)
	}
	path := strings.TrimPrefix(arg, "file://")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the opener's argument %q is not a file: %v", arg, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("the file with the token is %v: others may read it", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `content="0;url=`+url+`"`) {
		t.Errorf("the file does not lead to the table: %s", b)
	}
}
