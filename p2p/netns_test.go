package p2p

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestLANDiscoveryNetns runs scripts/lan-discovery.sh: real mDNS between
// network namespaces on a private bridge, never on this machine's own
// interfaces. It needs root and iproute2 (CI runs as root); otherwise it
// skips, saying why.
func TestLANDiscoveryNetns(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds a probe and makes network namespaces")
	}
	if runtime.GOOS != "linux" {
		t.Skip("network namespaces are Linux only")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot make network namespaces (run scripts/lan-discovery.sh as root)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("the ip command (iproute2) is missing")
	}
	probeNS := "okey-chk-" + time.Now().Format("150405.000000")
	if out, err := exec.Command("ip", "netns", "add", probeNS).CombinedOutput(); err != nil {
		t.Skipf("cannot make network namespaces here: %v: %s", err, out)
	}
	exec.Command("ip", "netns", "del", probeNS).Run()

	probe := filepath.Join(t.TempDir(), "mdnsprobe")
	// go test puts the GOROOT/bin of the go command running it first in PATH.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("find the go command: %v", err)
	}
	if out, err := exec.Command(goBin, "build", "-o", probe, "./internal/mdnsprobe").CombinedOutput(); err != nil {
		t.Fatalf("build probe: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../scripts/lan-discovery.sh", "4")
	cmd.Env = append(os.Environ(), "PROBE="+probe, "TIMEOUT=20s")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("lan-discovery.sh: %v", err)
	}
}
