package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRun: a package's result line, a failing test's whole output, the
// longest tests in order, and exit 1 when anything failed.
func TestRun(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":2.5}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:2: figure: 5 ms\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: wrong\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"        more of it\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"chromium: noise\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    browsertest.go:113: chromium's output, its last 40 lines:\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.1}`,
		`{"Action":"pass","Package":"p","Test":"TestC","Elapsed":7}`,
		`{"Action":"output","Package":"p","Output":"FAIL\tp\t9.6s\n"}`,
		`{"Action":"fail","Package":"p","Elapsed":9.6}`,
		`{"Action":"output","Package":"q","Output":"ok  \tq\t1.0s\n"}`,
		`{"Action":"pass","Package":"q","Elapsed":1}`,
		`# q [build failed]`,
		`{"Action":"output","Package":"r","Test":"TestHang","Output":"panic: test timed out\n"}`,
		`{"Action":"build-output","ImportPath":"s","Output":"s/x.go:1: syntax error\n"}`,
		`{"Action":"build-fail","ImportPath":"s"}`,
	}, "\n")
	var out strings.Builder
	if code := run(strings.NewReader(in), &out, 10); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	got := out.String()
	for _, want := range []string{"b_test.go:3: wrong", "FAIL\tp\t9.6s", "ok  \tq\t1.0s", "# q [build failed]", "panic: test timed out", "s/x.go:1: syntax error",
		"the 2 longest tests:\n      7.0 s  p TestC\n      2.5 s  p TestA\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	// The tail says why TestB failed, its message alone.
	if tail := "why the failing tests failed (their last messages; the whole output is above):\n  p TestB: b_test.go:3: wrong\n"; !strings.HasSuffix(got, tail) {
		t.Errorf("the output does not end with %q:\n%s", tail, got)
	}
	if strings.Contains(got, "=== RUN   TestA") {
		t.Errorf("a passing test's output shown:\n%s", got)
	}
	out.Reset()
	if code := run(strings.NewReader(`{"Action":"pass","Package":"q","Test":"TestX","Elapsed":1}`), &out, 10); code != 0 {
		t.Errorf("all passed: exit %d", code)
	}
	out.Reset()
	if code := run(strings.NewReader(`{"Action":"build-fail","ImportPath":"s"}`), &out, 10); code != 1 {
		t.Errorf("a build failed: exit %d", code)
	}
}

// TestReasonsCut: a long message is cut to one line of at most 300 bytes
// (and the mark), never inside a character; a test with no message of its
// own says so.
func TestReasonsCut(t *testing.T) {
	long := "    x_test.go:9: " + strings.Repeat("ş", 400) + "\n"
	got := reasons("github.com/okey-game/okey/p", "TestL", []string{long})
	if len(got) != 1 || !utf8.ValidString(got[0]) || !strings.HasSuffix(got[0], "...") || len(got[0]) > len("  p TestL: ")+303 {
		t.Errorf("cut: %q", got)
	}
	if got := reasons("q", "TestN", []string{"panic: boom\n"}); len(got) != 1 || !strings.Contains(got[0], "q TestN: no message of its own") {
		t.Errorf("no message: %q", got)
	}
}
