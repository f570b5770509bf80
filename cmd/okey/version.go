package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/okey-game/okey/internal/i18n"
)

func init() {
	register(command{name: "version", summary: i18n.Mark("print okey's version and the Go it was built with"), run: runVersion})
}

// version is set at build time (-ldflags "-X main.version=v1.2.3"); without
// it, the module version or VCS revision recorded by the Go toolchain is used.
var version = ""

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" {
			fmt.Fprintln(stderr, i18n.T("usage: okey version\n\nPrints okey's version, its source revision when known, and the Go it was\nbuilt with."))
			return 0
		}
		fmt.Fprintln(stderr, i18n.T("usage: okey version"))
		return 2
	}
	v, rev, goV := version, "", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goV = bi.GoVersion
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				if s.Value == "true" && rev != "" {
					rev += "+changes"
				}
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	if rev != "" {
		v += " (" + rev + ")"
	}
	fmt.Fprintf(stdout, "okey %s, %s\n", v, goV)
	return 0
}
