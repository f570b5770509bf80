# netns-lan.sh: sourced by lan-discovery.sh and lan-test.sh.
#
# make_lan N makes a simulated LAN: a bridge in namespace $BR_NS and N
# namespaces okey-p1-$ID .. okey-pN-$ID, each with eth0 on the bridge
# (10.77.0.i/24) and lo up. Every namespace made is added to NSES, which the
# caller's cleanup removes. Needs BR_NS, ID and NSES set, and root.
make_lan() {
	local n=$1 i ns veth
	ip netns add "$BR_NS"
	NSES+=("$BR_NS")
	ip -n "$BR_NS" link add br0 type bridge
	ip -n "$BR_NS" link set br0 up
	for i in $(seq 1 "$n"); do
		ns="okey-p$i-$ID"
		veth="okv$ID-$i"
		veth=${veth:0:15}
		ip netns add "$ns"
		NSES+=("$ns")
		ip link add "$veth" type veth peer name eth0 netns "$ns"
		ip link set "$veth" netns "$BR_NS"
		ip -n "$BR_NS" link set "$veth" master br0
		ip -n "$BR_NS" link set "$veth" up
		ip -n "$ns" addr add "10.77.0.$i/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" link set lo up
	done
}
