package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/verdict"
	"github.com/okey-game/okey/verdict/page"
)

// writeVerifyPage is okey verify --html OUT [FILE]: the page of package
// page, with FILE inside when given. It returns verify's exit status for
// FILE (0 without one), or 2 when the page cannot be written.
func writeVerifyPage(out, file string, stdout, stderr io.Writer) int {
	exe, _ := os.Executable()
	wasmPath, tried, err := page.WasmPath(os.Getenv, exe)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --html needs okey's verifier compiled to WebAssembly, %s, and found none (looked at %s): build it with make build (it writes bin/okey-verify.wasm beside bin/okey), or name it with %s=PATH\n",
			page.WasmName, strings.Join(tried, ", "), page.WasmEnv))
		return 2
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s: %s\n", wasmPath, ui.Plain(err))
		return 2
	}
	status := 0
	var transcript []byte
	name := ""
	if file != "" {
		res := verdict.File(file)
		if res.Error != "" && res.Steps == 0 && res.Ruleset == "" {
			// Unreadable or not a transcript: no page for it.
			fmt.Fprint(stderr, res.Text())
			return 2
		}
		if transcript, err = os.ReadFile(file); err != nil {
			fmt.Fprintf(stderr, "okey: %s: %s\n", file, ui.Plain(err))
			return 2
		}
		name, status = filepath.Base(file), res.Status
		fmt.Fprint(stdout, res.Text())
	}
	var b bytes.Buffer
	if err := page.Write(&b, wasm, transcript, name, langCode()); err != nil {
		fmt.Fprintf(stderr, "okey: %s: %s\n", out, ui.Plain(err))
		return 2
	}
	if err := atomicfile.Write(out, b.Bytes()); err != nil {
		fmt.Fprintf(stderr, "okey: %s: %s\n", out, ui.Plain(err))
		return 2
	}
	fmt.Fprint(stdout, i18n.T("okey: wrote %s (%d KB): open it in any browser, offline, or send it; it checks a transcript dropped on it as okey verify does\n", out, (b.Len()+1023)/1024))
	return status
}

// langCode is the interface's language as the page names it.
func langCode() string {
	if i18n.Current() == i18n.Turkish {
		return "tr"
	}
	return "en"
}
