#!/bin/sh
# End-to-end test of the terminal table in a real terminal: runs
# `okey play --bots 3` inside tmux (80x24) and plays one whole hand through
# the keys (d to draw; h for the hint, then x to discard or w to win) until
# the end-of-hand screen shows; then leaving, verify, replay, resume, a
# german hand, part of a hand in Turkish (--lang tr) and an Okey 101 round.
# Exit 0 on success or a clear SKIP when tmux is not available; 1 on
# failure, with the last screen.
#
# Usage: scripts/tmux-play-test.sh [path/to/okey]   (default: builds bin/okey)
set -eu
cd "$(dirname "$0")/.."
# English and UTF-8 whatever the caller's locale: the checks read English
# words, except in the Turkish part, which asks for Turkish itself.
LC_ALL=C.UTF-8
LC_MESSAGES=
LANG=
export LC_ALL LC_MESSAGES LANG

if ! command -v tmux >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "tmux-play-test: installing tmux"
		apt-get install -y tmux >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y tmux >/dev/null 2>&1; } || true
	fi
fi
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux-play-test: SKIP: tmux is not installed and could not be installed"
	exit 0
fi

okey=${1:-}
if [ -z "$okey" ]; then
	go build -o bin/okey ./cmd/okey
	okey=./bin/okey
fi

data=$(mktemp -d)
sock=okey-e2e-$$
sess=play
tm() { tmux -u -L "$sock" "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; rm -rf "$data"; }
trap cleanup EXIT INT TERM
# run_in_session COMMAND: a fresh table session (80x24, xterm-256color) runs
# COMMAND, then prints its exit status as okey-exited-N.
run_in_session() {
	tm kill-session -t "$sess" >/dev/null 2>&1 || true
	tm -f /dev/null new-session -d -s "$sess" -x 80 -y 24 \
		"TERM=xterm-256color $1; echo okey-exited-\$?; sleep 600"
}
# leave_table QUESTION: q asks QUESTION (a pattern), y leaves, okey exits 0.
leave_table() {
	tm send-keys -t "$sess" q
	wait_for 5 "$1"
	tm send-keys -t "$sess" y
	wait_for 15 "okey-exited-0"
}

# A session that outlives every table's: killing a table's session never
# takes the server down while the next one starts on the same socket.
tm -f /dev/null new-session -d -s keep -x 80 -y 24 "sleep 3600"
run_in_session "$okey play --bots 3 --name e2e --data $data --pace 0"

screen() { tm capture-pane -p -t "$sess"; }
fail() {
	echo "tmux-play-test: FAIL: $1"
	echo "---- screen ----"
	screen || true
	echo "---- log ----"
	tail -20 "$data/okey.log" 2>/dev/null || true
	exit 1
}
# wait_for SECONDS PATTERN: until the screen matches (grep -E).
wait_for() { expect "$1" "$2" "waited $1 s for /$2/"; }
# expect SECONDS PATTERN WHAT: until the screen matches, or the test fails
# saying WHAT. A panel reaches the terminal in pieces: a check on one
# capture right after its first line showed can see the rest still
# missing (a german score table's last lines, once), so every check of
# what must appear waits for it.
expect() {
	end=$(($(date +%s) + $1))
	while ! screen | grep -Eq "$2"; do
		[ "$(date +%s)" -lt "$end" ] || fail "$3"
		sleep 0.1
	done
}
# wait_key SECONDS PATTERN KEY: after KEY, until the screen matches. Right
# after the deal the screen may already say it is your turn while the last
# of your tiles is still being unlocked: the key is then refused with "wait
# until all your tiles are open", and pressed again.
wait_key() {
	end=$(($(date +%s) + $1))
	while ! screen | grep -Eq "$2"; do
		[ "$(date +%s)" -lt "$end" ] || fail "waited $1 s for /$2/"
		if screen | grep -Eq "$w_closed"; then
			sleep 0.2
			tm send-keys -t "$sess" "$3"
		fi
		sleep 0.1
	done
}
# wait_gone SECONDS PATTERN: until the screen no longer matches.
wait_gone() {
	end=$(($(date +%s) + $1))
	while screen | grep -Eq "$2"; do
		[ "$(date +%s)" -lt "$end" ] || fail "waited $1 s for /$2/ to go"
		sleep 0.1
	done
}

# The words play_hand reads on the screen (English; the Turkish part sets
# its own).
w_turn="your turn: d"
w_over="hand 1 is over"
w_draw="your turn: draw"
w_discard="your turn: discard"
w_hinted="you can win|from a win|a winning hand|no hint|discard [A-Z]|show [A-Z]"
w_win="you can win"
w_gap="put the cursor on the tile"
w_closed="wait until all your tiles are open"

# play_hand [MAX]: plays the player's turns through the keys until the end
# of hand 1 shows, or MAX moves (d to draw; h for the hint, then w to win
# or x to discard).
play_hand() {
	max=${1:-100000}
	moves=0
	while [ $moves -lt "$max" ]; do
		wait_for 120 "$w_turn|$w_over|okey-exited"
		s=$(screen)
		case "$s" in
		*"$w_over"*) break ;;
		*okey-exited*) fail "okey exited" ;;
		*"$w_draw"*)
			tm send-keys -t "$sess" d
			wait_gone 60 "$w_draw"
			;;
		*"$w_discard"*)
			tm send-keys -t "$sess" h
			wait_key 10 "$w_hinted" h
			if screen | grep -q "$w_win"; then
				tm send-keys -t "$sess" w
			else
				tm send-keys -t "$sess" x
				# No tile under the cursor (a gap): the next tile.
				i=0
				while [ $i -lt 30 ] && screen | grep -q "$w_gap"; do
					tm send-keys -t "$sess" Right x
					sleep 0.1
					i=$((i + 1))
				done
			fi
			wait_gone 60 "$w_discard"
			;;
		esac
		moves=$((moves + 1))
	done
}

start=$(date +%s)
play_hand
wait_for 5 "change +score"
expect 5 "e2e" "the end of the hand does not list the player"
echo "tmux-play-test: ok: a whole hand played through the keys ($moves moves, $(($(date +%s) - start)) s)"
screen | sed -n '2,16p'

# Leave: enter closes the hand's result, q asks, y leaves.
tm send-keys -t "$sess" Enter
leave_table "leave the table\?"
ls "$data"/matches/*/seat-0/transcript >/dev/null 2>&1 || fail "no transcript saved in $data/matches"
echo "tmux-play-test: ok: left the table, transcript saved"

# Leaving is not cheating: verify says unfinished, honest so far, status 3.
tr=$(ls "$data"/matches/*/seat-0/transcript | head -1)
set +e
out=$($okey verify "$tr")
rc=$?
set -e
[ "$rc" = 3 ] || fail "okey verify of a match left with q: exit $rc: $out"
case "$out" in
*CHEAT*) fail "okey verify calls leaving cheating: $out" ;;
*"unfinished, honest so far"*) ;;
*) fail "okey verify: $out" ;;
esac
# The replay shows it up to where it stops, says so, and exits with verify's status.
run_in_session "$okey replay $tr"
wait_for 15 "unfinished, honest so far"
tm send-keys -t "$sess" End
tm send-keys -t "$sess" q
wait_for 10 "okey-exited-3"
$okey help rules german | grep -q "lower is better" || fail "okey help rules german"
echo "tmux-play-test: ok: the match left verifies and replays as unfinished, honest so far (exit 3)"

# Come back: okey play --bots lists the unfinished matches, 1 resumes the newest.
run_in_session "$okey play --bots 3 --name e2e --data $data --pace 0"
wait_for 10 "1  resume classic vs hard-1, hard-2, hard-3"
tm send-keys -t "$sess" 1
wait_for 90 "match resumed at hand 2"
expect 5 "e2e" "the resumed table does not show the player"
expect 5 "hand 2: .* deal" "the resumed table does not show the hand's log"
leave_table "leave the table\?"
echo "tmux-play-test: ok: the unfinished match was offered and resumed"

# A german hand: four players in two teams (shown in the title, at the
# seats and in the score table), lower is better, and the score breakdown.
data2=$(mktemp -d)
trap 'cleanup; rm -rf "$data2"' EXIT INT TERM
run_in_session "$okey play --bots 3 --preset german --name e2e --data $data2 --pace 0"
wait_for 30 "you are e2e \(team A\)"
wait_for 30 "team B"
start=$(date +%s)
play_hand
wait_for 5 "change +score"
expect 5 "lower is better" "the german score table does not say lower is better"
expect 5 "e2e +team A" "the german score table does not show the teams"
expect 5 "partners share a score" "the german score table does not say who plays with whom"
s=$(screen)
# A won hand explains its changes; a stalemate changes nothing to explain.
if echo "$s" | grep -q " won with "; then
	echo "$s" | grep -Eq "why" || fail "the german score table has no breakdown"
fi
echo "tmux-play-test: ok: a german hand with teams and the score breakdown ($moves moves, $(($(date +%s) - start)) s)"
echo "$s" | sed -n '2,16p'
tm send-keys -t "$sess" Enter
leave_table "leave the table\?"
echo "tmux-play-test: ok: left the german table"

# In Turkish (--lang tr): part of a hand through the keys, the table's words
# on screen, the help, leaving, and the verdict. The terminal must take
# UTF-8 (LC_ALL=C.UTF-8 for the program, tmux -u), whatever the caller's
# locale: in a C locale the screen library writes ş and ı as "?".
data3=$(mktemp -d)
trap 'cleanup; rm -rf "$data2" "$data3"' EXIT INT TERM
run_in_session "LC_ALL=C.UTF-8 $okey --lang tr play --bots 3 --name e2e --data $data3 --pace 0"
wait_for 30 "adın: e2e"
w_turn="sıra sende: "
w_over="el bitti"
w_draw="sıra sende: desteden"
w_discard="sıra sende: bir taş at"
w_hinted="bitirebilirsin|bitmeye|bitmeye hazır|öneri yok| göster: "
w_win="bitirebilirsin"
w_gap="imleci atılacak taşın"
w_closed="bütün taşların açılana kadar bekle"
w_over="1. el bitti"
play_hand 6
if screen | grep -q "$w_over"; then
	# A bot won within the player's six moves: the end panel covers the
	# table; enter deals the next hand, and two moves of it show the words.
	tm send-keys -t "$sess" Enter
	wait_gone 10 "$w_over"
	w_over="2. el bitti"
	play_hand 2
fi
for w in istakan gösterge deste "puan" "taş" "\\? yardım · q çık"; do
	expect 5 "$w" "the Turkish table does not show \"$w\""
done
expect 5 "attın: |attı: |aldı: |desteden çek" "the Turkish log shows no move"
s=$(screen)
for w in "your rack" "stock" "face-up" "dealer" "your turn"; do
	echo "$s" | grep -q "$w" && fail "the Turkish table shows \"$w\""
done
tm send-keys -t "$sess" "?"
wait_for 5 "tuşlar"
expect 5 "puanlama" "the Turkish help has no scoring line"
tm send-keys -t "$sess" n
wait_gone 5 "tuşlar"
leave_table "masadan kalkıyor musun\?"
tr3=$(ls "$data3"/matches/*/seat-0/transcript | head -1)
set +e
out=$($okey --lang tr verify "$tr3")
rc=$?
set -e
[ "$rc" = 3 ] || fail "okey --lang tr verify: exit $rc: $out"
case "$out" in
*"yarım, buraya kadar dürüst"*"kimse suçlanmıyor"*) ;;
*) fail "okey --lang tr verify: $out" ;;
esac
LC_ALL="" LC_MESSAGES="" LANG=tr_TR.UTF-8 $okey help rules german | grep -q "düşük olan iyidir" || fail "LANG=tr_TR.UTF-8 okey help rules german"
echo "tmux-play-test: ok: a Turkish table ($moves moves), its help, leaving, and the verdict in Turkish"

# An Okey 101 round: d draws; c h clears the selection and asks the hint
# (it selects the best opening and puts the cursor on the discard); l lays
# the opening when the hint says it opens; x discards; b gives a taken
# discard back. Until the round's panel shows every seat's points.
data4=$(mktemp -d)
trap 'cleanup; rm -rf "$data2" "$data3" "$data4"' EXIT INT TERM
w_closed="wait until all your tiles are open"
run_in_session "$okey play --bots 3 --preset 101:rounds=3 --name e2e --data $data4 --pace 0"
wait_for 30 "indicator"
start=$(date +%s)
moves=0
while :; do
	wait_for 120 "your turn: |round 1 is over|okey-exited"
	s=$(screen)
	case "$s" in
	*"round 1 is over"*) break ;;
	*okey-exited*) fail "okey exited" ;;
	*"your turn: draw"*)
		tm send-keys -t "$sess" d
		wait_gone 60 "your turn: draw"
		;;
	*"your turn: use the"*)
		tm send-keys -t "$sess" b
		wait_gone 60 "your turn: use the"
		;;
	*"your turn: lay"* | *"your turn: discard"*)
		# The dealer's first turn says "your turn: discard a tile (x)":
		# its hint never says l lays, so it goes to the discard. A long
		# plan ("add Y10→8 · swap R8⇄A · lay R2 R2* · ...") may leave no
		# room on the line for its discard; the cursor is on it anyway.
		tm send-keys -t "$sess" c h
		wait_key 10 "you can open|best opening|you can lay|you can add|nothing of yours|discard the [RYBKF]|^ *(add|swap|lay) [RYBKF]" h
		if screen | grep -q "l lays"; then
			tm send-keys -t "$sess" l
			wait_for 30 "you open|you lay|round 1 is over"
		else
			tm send-keys -t "$sess" x
			sleep 0.3
			i=0
			while [ $i -lt 30 ]; do
				if screen | grep -q "put the cursor on the tile"; then
					tm send-keys -t "$sess" Right x
				elif screen | grep -q "y: yes   n: no"; then
					# A discard that costs a 101-point penalty asks first.
					tm send-keys -t "$sess" y
				else
					break
				fi
				sleep 0.3
				i=$((i + 1))
			done
			wait_for 30 "you discard|you finish|round 1 is over"
			wait_gone 60 "your turn: (lay|discard)"
		fi
		;;
	esac
	moves=$((moves + 1))
done
expect 5 "total" "the 101 round's panel has no totals"
expect 5 "rounds left" "the 101 round's panel does not say the rounds left"
s=$(screen)
echo "tmux-play-test: ok: an Okey 101 round played through the keys ($moves moves, $(($(date +%s) - start)) s)"
echo "$s" | sed -n '2,16p'
tm send-keys -t "$sess" Enter
leave_table "leave the table\?"
