//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says what this command is for: it runs in the page okey verify
// --html writes, built with GOOS=js GOARCH=wasm (make build does).
func main() {
	fmt.Fprintln(os.Stderr, "okey-verify.wasm: build it with GOOS=js GOARCH=wasm go build -o bin/okey-verify.wasm ./verdict/page/wasm (make build does)")
	os.Exit(2)
}
