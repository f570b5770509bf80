package web

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"testing"
)

// TestTwoLaunchesOneBrowser: two okey processes on one machine (two seats
// of a LAN table, or a table and a lobby) opened in one browser. Cookies
// are not kept apart by port, so the second launch's cookie must not
// replace the first's: each page still loads after the other was opened.
func TestTwoLaunchesOneBrowser(t *testing.T) {
	s1, _ := testServer(t)
	s2, _ := testServer(t)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	load := func(u string) int {
		t.Helper()
		r, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	if code := load(s1.URL()); code != http.StatusOK {
		t.Fatalf("the first launch's URL: %d", code)
	}
	if code := load(s2.URL()); code != http.StatusOK {
		t.Fatalf("the second launch's URL: %d", code)
	}
	for _, s := range []*Server{s1, s2} {
		if code := load(s.Base() + "/"); code != http.StatusOK {
			t.Errorf("port %d reloaded after both launches were opened: %d, want 200", s.port, code)
		}
	}
}
