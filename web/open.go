package web

import (
	"errors"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// ErrNoBrowser says the browser cannot be opened here: no display, or no
// program that opens one. The player opens the printed address instead.
var ErrNoBrowser = errors.New("web: no browser to open here")

// opener is the command that opens url in the desktop's browser, or nil.
func opener(getenv func(string) string, goos string, url string) []string {
	switch goos {
	case "darwin":
		return []string{"open", url}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", url}
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return nil
	}
	return []string{"xdg-open", url}
}

// Open opens url in the player's browser, without waiting for it; with no
// display or no opener it returns ErrNoBrowser.
//
// The browser is given a file that leads to url, not url: the launch's
// token must not be an argument of the opener or of the browser it starts,
// where every user of the machine reads it (ps, /proc/PID/cmdline) for as
// long as the browser runs. The file is the player's alone (a 0700
// directory, a 0600 file) and is removed a minute later.
func Open(url string) error {
	if opener(os.Getenv, runtime.GOOS, url) == nil {
		return ErrNoBrowser
	}
	dir, err := os.MkdirTemp("", "okey-open-")
	if err != nil {
		return ErrNoBrowser
	}
	file := filepath.Join(dir, "okey.html")
	u := html.EscapeString(url)
	page := `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=` + u + `"><a href="` + u + `">okey</a>` + "\n"
	if err := os.WriteFile(file, []byte(page), 0o600); err != nil {
		os.RemoveAll(dir)
		return ErrNoBrowser
	}
	time.AfterFunc(time.Minute, func() { os.RemoveAll(dir) })
	target := "file://" + filepath.ToSlash(file)
	if runtime.GOOS == "windows" {
		target = file
	}
	args := opener(os.Getenv, runtime.GOOS, target)
	path, err := exec.LookPath(args[0])
	if err != nil {
		return ErrNoBrowser
	}
	cmd := exec.Command(path, args[1:]...)
	if err := cmd.Start(); err != nil {
		return ErrNoBrowser
	}
	go cmd.Wait() //nolint:errcheck // the opener's exit says nothing about the page
	return nil
}
