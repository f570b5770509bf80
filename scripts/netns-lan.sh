# shellcheck shell=bash
# netns-lan.sh: the simulated LAN of okey's end-to-end scripts
# (lan-discovery.sh, lan-test.sh, tournament.sh, party.sh), made of the
# building blocks of natlab-lib.sh (the NAT labs'). Source it when the
# script starts: its cleanup calls lan_teardown. The caller sets ID, BR_NS
# and the arrays NSES and PIDS: every namespace made here is appended to
# NSES, every background process natlab-lib starts to PIDS (the caller
# appends its own); lan_teardown removes them all. The functions need root.
#
#   lan_bridge             namespace $BR_NS holding bridge br0 (lo up)
#   lan_host NS ADDR VETH  namespace NS (lo up) whose eth0 is on the bridge
#                          at ADDR (a.b.c.d/len), by a veth named VETH (at
#                          most 15 characters) on the bridge's side
#   make_lan N             lan_bridge, then N hosts okey-p1-$ID .. okey-pN-$ID
#                          at 10.77.0.i/24
#   lan_teardown           kills the processes of PIDS, then whatever still
#                          runs in the namespaces of NSES, and deletes those
#
# Nothing here touches the machine's own interfaces: every veth has both
# ends in namespaces made here.

# shellcheck source=natlab-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/natlab-lib.sh"
NL_NS_VAR=NSES
NL_PID_VAR=PIDS

lan_bridge() { nl_segment "$BR_NS"; }

lan_host() {
	nl_ns "$1"
	nl_attach "$BR_NS" "$1" eth0 "$2" "$3"
}

make_lan() {
	local n=$1 i veth
	lan_bridge
	for i in $(seq 1 "$n"); do
		veth="okv$ID-$i"
		lan_host "okey-p$i-$ID" "10.77.0.$i/24" "${veth:0:15}"
	done
}

lan_teardown() { nl_teardown PIDS NSES; }
