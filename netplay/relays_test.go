package netplay

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestResolveRelays(t *testing.T) {
	dir := t.TempDir()
	const r1 = "/ip4/11.0.0.1/tcp/4001/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf"
	const r2 = "/ip4/11.0.0.2/udp/4001/quic-v1/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf"
	if got, err := ResolveRelays(dir, nil); err != nil || got != nil {
		t.Fatalf("no setting: %v %v", got, err)
	}
	if got, err := ResolveRelays(dir, []string{r1, r2}); err != nil || !slices.Equal(got, []string{r1, r2}) {
		t.Fatalf("given: %v %v", got, err)
	}
	if got, err := ResolveRelays(dir, nil); err != nil || !slices.Equal(got, []string{r1, r2}) {
		t.Fatalf("kept: %v %v", got, err)
	}
	// A bad address is refused and the setting is unchanged.
	for _, bad := range []string{"/ip4/1.2.3.4/tcp/1", "junk", r1 + "/p2p-circuit"} {
		if _, err := ResolveRelays(dir, []string{r1, bad}); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if got, _ := ResolveRelays(dir, nil); !slices.Equal(got, []string{r1, r2}) {
		t.Fatalf("a refused --relay changed the setting: %v", got)
	}
	if got, err := ResolveRelays(dir, []string{NoRelay}); err != nil || got != nil {
		t.Fatalf("none: %v %v", got, err)
	}
	if got, err := ResolveRelays(dir, nil); err != nil || got != nil {
		t.Fatalf("cleared: %v %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, RelaysFile), []byte("# mine\n"+r1+"\nbroken\n"), 0o600)
	if _, err := ResolveRelays(dir, nil); err == nil {
		t.Fatal("a broken setting file was accepted")
	}
}
