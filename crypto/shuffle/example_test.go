package shuffle_test

import (
	"fmt"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/shuffle"
)

// A prover shuffles four points under its secret scalar and proves it; the
// verifier needs only the context, the key and the two lists.
func Example() {
	in := make([]group.Point, 4)
	for j := range in {
		p, _ := group.NewPoint(group.NewTranscript("example/in").Int(j).Element())
		in[j] = *p
	}
	alpha := group.NewTranscript("example/alpha").Scalar() // secret
	perm := []int{2, 0, 3, 1}                              // secret
	out := make([]group.Point, len(in))
	for k := range out {
		p, _ := group.NewPoint(ristretto255.NewIdentityElement().ScalarMult(alpha, in[perm[k]].Element()))
		out[k] = *p
	}
	key, _ := group.NewPoint(ristretto255.NewIdentityElement().ScalarBaseMult(alpha))
	st := &shuffle.Statement{Context: []byte("example"), Key: key, In: in, Out: out}
	nonceKey := make([]byte, shuffle.KeySize) // in okey: derived from the seat's secret seed
	proof, err := shuffle.Prove(st, &shuffle.Witness{Scalar: alpha, Perm: perm}, nonceKey)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(proof), shuffle.Verify(st, proof))
	st.Out[0], st.Out[1] = st.Out[1], st.Out[0]
	fmt.Println(shuffle.Verify(st, proof))
	// Output:
	// 512 <nil>
	// shuffle: invalid proof
}
