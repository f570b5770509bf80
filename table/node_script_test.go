package table

import (
	"bufio"
	"crypto/ed25519"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the script files of testdata/node with what the node says")

// The node's script tests, in the style of etcd's datadriven testdata: each
// file under testdata/node is a sequence of commands, each followed by a
// line "----" and the node's Ready after it (then a blank line). The node
// runs alone: no goroutines, no clock, no network; the script signs the
// other seats' messages (hellos, which need no cryptography) with their keys
// and plays the loop's part (ticks, fetch answers). go test -update writes
// what the node says into the files (read the diff before committing it).
//
// Commands:
//
//	new seats=N seat=S [stall=T] [withhold=T] [movewithhold=T] [match=SEED]
//	sign NAME seat=S [step=K] [prev=chain|zero|NAME|@MADEUP] [nonce=X]
//	step NAME...           receive these envelopes, in order
//	propose [nonce=X]      this seat's hello for the current step
//	advance                apply what Ready says to apply
//	tick [n=K]             K ticks of logical time
//	fetched ID [NAME...]   the answer to fetch ID (with "fail": it failed)
//	status                 the step, buffer, forks, mutes and rejects
//	serve, flood, play, run, fetches
//	                       the members answer the node's fetches in ticks,
//	                       and one floods it with forks (node_flood_script_test.go)
//
// Every command but status prints the Ready after it; the fetches it lists
// are then taken as started (as the loop starts them).

type nodeScript struct {
	t     *testing.T
	cfg   Config
	keys  []ed25519.PrivateKey
	n     *node
	envs  map[string]*Envelope
	names map[[32]byte]string
	net   *scriptNet // the members' answers (node_flood_script_test.go)
}

func TestNodeScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "node", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			runScript(t, f)
		})
	}
}

// scriptCase is one command of a script and the output expected of it.
type scriptCase struct {
	pre      string // the comment lines before it
	line     int
	cmd      string
	expected string
}

// parseScript reads a datadriven file: comments (#) and blank lines
// between cases, a command line, "----", the expected lines up to a blank
// line or the end of the file.
func parseScript(path string) ([]scriptCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []scriptCase
	sc := bufio.NewScanner(f)
	ln := 0
	var pre []string
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			pre = append(pre, line)
			continue
		}
		c := scriptCase{line: ln, cmd: line, pre: strings.Join(pre, "\n")}
		pre = nil
		if !sc.Scan() {
			return nil, fmt.Errorf("%s:%d: no ---- after the command", path, ln)
		}
		ln++
		if strings.TrimSpace(sc.Text()) != "----" {
			return nil, fmt.Errorf("%s:%d: want ----, have %q", path, ln, sc.Text())
		}
		var out []string
		for sc.Scan() {
			ln++
			if strings.TrimSpace(sc.Text()) == "" {
				break
			}
			out = append(out, sc.Text())
		}
		c.expected = strings.Join(out, "\n")
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

func runScript(t *testing.T, path string) {
	cases, err := parseScript(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &nodeScript{t: t}
	var b strings.Builder
	for i, c := range cases {
		got := s.run(c.cmd)
		if i > 0 {
			b.WriteString("\n")
		}
		if c.pre != "" {
			b.WriteString(c.pre + "\n")
		}
		fmt.Fprintf(&b, "%s\n----\n%s\n", c.cmd, got)
		if got != c.expected && !*update {
			t.Fatalf("%s:%d: %s\ngot:\n%s\nwant:\n%s", path, c.line, c.cmd, got, c.expected)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// args splits "cmd a b k=v" into the words and the keyed values.
func args(cmd string) (words []string, kv map[string]string) {
	kv = map[string]string{}
	for _, f := range strings.Fields(cmd) {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = v
		} else {
			words = append(words, f)
		}
	}
	return words, kv
}

func (s *nodeScript) num(kv map[string]string, k string, def int) int {
	v, ok := kv[k]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		s.t.Fatalf("%s=%q: %v", k, v, err)
	}
	return n
}

func (s *nodeScript) run(cmd string) string {
	words, kv := args(cmd)
	switch words[0] {
	case "new":
		n := s.num(kv, "seats", 3)
		seed := uint64(s.num(kv, "match", 77))
		cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", n, seed)
		if err != nil {
			s.t.Fatal(err)
		}
		s.net = nil
		if _, ok := kv["match"]; ok {
			// The match's own config (its nonces drawn by the seats), its
			// keys LocalConfig's of the seed.
			res := s.honestMatch(n, seed)
			cfg = res.Config
			s.net = &scriptNet{flooder: -1, madeUp: map[[32]byte][]byte{}, asked: map[int]int{}, match: res.Peers[0].Chain()}
		}
		m, err := NewMachine(cfg, nil)
		if err != nil {
			s.t.Fatal(err)
		}
		stall := s.num(kv, "stall", 8)
		withhold := s.num(kv, "withhold", 20)
		s.cfg, s.keys = cfg, keys
		s.n = newNode(nodeConfig{Table: cfg, Seat: s.num(kv, "seat", 0), StallTicks: stall, WithholdTicks: withhold,
			MoveWithholdTicks: s.num(kv, "movewithhold", withhold)}, m)
		s.envs, s.names = map[string]*Envelope{}, map[[32]byte]string{}
		return s.ready()
	case "sign":
		return s.sign(words[1], kv)
	case "step":
		for _, name := range words[1:] {
			s.n.Step(s.env(name).Raw)
		}
		return s.ready()
	case "propose":
		m := s.n.m
		env := s.hello(s.n.c.Seat, m.Step(), m.Prev(), s.num(kv, "nonce", 0))
		s.names[env.Hash()] = "own"
		if err := s.n.Propose(env); err != nil {
			return "error: " + err.Error()
		}
		return s.ready()
	case "advance":
		if err := s.n.Advance(s.n.Ready()); err != nil {
			return "error: " + err.Error()
		}
		return s.ready()
	case "tick":
		for range s.num(kv, "n", 1) {
			s.n.Tick()
		}
		return s.ready()
	case "fetched":
		id, err := strconv.ParseUint(words[1], 10, 64)
		if err != nil {
			s.t.Fatal(err)
		}
		var frames [][]byte
		failed := false
		for _, name := range words[2:] {
			if name == "fail" {
				failed = true
				continue
			}
			frames = append(frames, s.env(name).Raw)
		}
		s.n.Fetched(id, frames, failed)
		return s.ready()
	case "status":
		return s.status()
	}
	if out, ok := s.netCmd(words, kv); ok {
		return out
	}
	s.t.Fatalf("unknown command %q", cmd)
	return ""
}

func (s *nodeScript) env(name string) *Envelope {
	e, ok := s.envs[name]
	if !ok {
		s.t.Fatalf("no envelope %q", name)
	}
	return e
}

// hello is seat's hello for step, linked to prev, with a nonce of its own,
// and the state hash of the node's machine after the chain up to prev (the
// node's own messages and the named ones prev leads back through).
func (s *nodeScript) hello(seat int, step uint32, prev [32]byte, nonce int) *Envelope {
	b := helloBody{ConfigHash: s.cfg.Hash()}
	b.Nonce[0], b.Nonce[1] = byte(seat), byte(nonce)
	env := &Envelope{Table: s.cfg.ID, Step: step, Seat: uint8(seat), Kind: KindHello, Prev: prev, Body: b.encode(),
		State: s.stateAt(prev)}
	if err := env.Seal(s.keys[seat], s.cfg.Hash()); err != nil {
		s.t.Fatal(err)
	}
	return env
}

// stateAt is the state hash after the envelope of hash prev: the node's
// machine, with the named envelopes that lead from its last step to prev
// applied to a copy (zero when they do not).
func (s *nodeScript) stateAt(prev [32]byte) [32]byte {
	m := s.n.m
	var path []*Envelope
	for h := prev; h != m.Prev(); {
		name, ok := s.names[h]
		e := s.envs[name]
		if !ok || e == nil || e.Step < m.Step() {
			return [32]byte{}
		}
		path = append([]*Envelope{e}, path...)
		h = e.Prev
	}
	c := m.clone()
	for _, e := range path {
		if c.Apply(e) != nil {
			return [32]byte{}
		}
	}
	return c.StateHash()
}

func (s *nodeScript) sign(name string, kv map[string]string) string {
	step := uint32(s.num(kv, "step", int(s.n.m.Step())))
	var prev [32]byte
	switch p := kv["prev"]; {
	case p == "" || p == "chain":
		if step > 0 {
			if int(step) > len(s.n.hashes) {
				s.t.Fatalf("prev=chain for step %d: the chain has %d", step, len(s.n.hashes))
			}
			prev = s.n.hashes[step-1]
		}
	case p == "zero":
	case strings.HasPrefix(p, "@"):
		prev = sha256.Sum256([]byte(p))
		s.names[prev] = p
	default:
		prev = s.env(p).Hash()
	}
	env := s.hello(s.num(kv, "seat", 0), step, prev, s.num(kv, "nonce", 0))
	s.envs[name] = env
	s.names[env.Hash()] = name
	return fmt.Sprintf("%s: seat %d, step %d, on %s", name, env.Seat, env.Step, s.name(prev))
}

// name is the script's name of a hash: a signed envelope's, a made-up
// link's, or "step K" of the node's chain.
func (s *nodeScript) name(h [32]byte) string {
	if n, ok := s.names[h]; ok {
		return n
	}
	if h == ([32]byte{}) {
		return "zero"
	}
	for i, c := range s.n.hashes {
		if c == h {
			return fmt.Sprintf("chain step %d", i)
		}
	}
	return fmt.Sprintf("%x", h[:4])
}

func (s *nodeScript) rawName(raw []byte) string { return s.name(sha256.Sum256(raw)) }

// ready prints the node's Ready, and takes its fetches as started.
func (s *nodeScript) ready() string {
	rd := s.n.Ready()
	out := s.ends(rd)
	for _, f := range rd.Fetches {
		if f.ByHash {
			out = append(out, fmt.Sprintf("fetch %d: seat %d for %s at step %d, within %d ticks", f.ID, f.Seat, s.name(f.Hash), f.Step, f.Within))
		} else {
			out = append(out, fmt.Sprintf("fetch %d: seat %d for the chain from step %d, within %d ticks", f.ID, f.Seat, f.From, f.Within))
		}
	}
	if rd.Speak != 0 {
		out = append(out, fmt.Sprintf("speak: %v for step %d", rd.Speak, s.n.m.Step()))
	}
	if rd.Apply != nil {
		own := ""
		if rd.Own {
			own = " (own: save, then send)"
		}
		out = append(out, fmt.Sprintf("apply: %s at step %d%s", s.rawName(rd.Apply.Raw), rd.Apply.Step, own))
	}
	if len(rd.Fetches) > 0 {
		if err := s.n.Advance(ready{Fetches: rd.Fetches}); err != nil {
			s.t.Fatal(err)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, "\n")
}

// ends prints how rd says the match ended, if it did: the violation (its
// evidence by name), the stall, the failure, or done.
func (s *nodeScript) ends(rd ready) []string {
	var out []string
	if v := rd.Violation; v != nil {
		var ev []string
		for _, e := range v.Evidence {
			ev = append(ev, s.rawName(e))
		}
		out = append(out, fmt.Sprintf("violation: seat %d, %s at step %d; evidence %s", v.Seat, v.Rule, v.Step, strings.Join(ev, ", ")))
	}
	if st := rd.Stall; st != nil {
		out = append(out, fmt.Sprintf("stall: seat %d silent for %d ticks (a %v for step %d)", st.Seat, st.Ticks, st.Kind, st.Step))
	}
	if rd.Failure != nil {
		out = append(out, "failure: "+rd.Failure.Error())
	}
	if rd.Done && rd.Violation == nil {
		out = append(out, "done")
	}
	return out
}

func (s *nodeScript) status() string {
	n := s.n
	var steps []int
	for k := range n.buf {
		steps = append(steps, int(k))
	}
	sort.Ints(steps)
	var buf []string
	for _, k := range steps {
		for _, e := range n.buf[uint32(k)] {
			buf = append(buf, s.rawName(e.Raw))
		}
	}
	var forks []string
	for _, f := range n.forks {
		forks = append(forks, s.rawName(f.Raw))
	}
	var mute []string
	for i, m := range n.mute {
		if m {
			mute = append(mute, strconv.Itoa(i))
		}
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, ", ")
	}
	return fmt.Sprintf("step %d; buffered %s; forks waiting %s; muted %s; rejected %d", n.m.Step(), list(buf), list(forks), list(mute), n.rejects)
}
