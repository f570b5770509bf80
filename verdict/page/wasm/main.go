//go:build js && wasm

// Command wasm is okey's verifier for the page that okey verify --html
// writes (package page): built with GOOS=js GOARCH=wasm, it gives the page
// two functions, the same Go code as okey verify and okey replay:
//
//	okeyVerify(bytes Uint8Array, name string, lang string) string
//	okeyReplay(bytes Uint8Array, lang string) string
//
// each returning JSON (page.Verdict, page.Replay). It then waits for calls
// for as long as the page is open.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/okey-game/okey/verdict/page"
)

func main() {
	js.Global().Set("okeyVerify", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return `{"text":"okeyVerify: want bytes, name, lang","status":2}`
		}
		return encode(page.Check(args[1].String(), bytesOf(args[0]), args[2].String()))
	}))
	js.Global().Set("okeyReplay", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return `{"stop":"okeyReplay: want bytes, lang"}`
		}
		return encode(page.ReplayOf(bytesOf(args[0]), args[1].String()))
	}))
	if ready := js.Global().Get("okeyReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func bytesOf(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"text":"internal error","status":2}`
	}
	return string(b)
}
