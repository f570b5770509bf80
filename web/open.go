package web

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
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
func Open(url string) error {
	args := opener(os.Getenv, runtime.GOOS, url)
	if args == nil {
		return ErrNoBrowser
	}
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
