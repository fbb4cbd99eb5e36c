# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The pairing driver's cost mode (pairbench.sh; make bench B=insns sets
# COST=1): both guests run under bench/insncount's plugin (delta=on, one
# TCG thread each), and each measured window is bracketed by the
# plugin's markers, here and, through the same datagram that marks the
# server guest's CPU (bench/guest/cpu-marks), in the server guest. The
# host (bench/drivers/insncost) turns the counts into instructions per
# I/O at each end.
#
# Each marker appends a row to $RDMASTOR_OUT/cost-marks.csv, in the
# order the plugin numbers its files (the Nth row is count.N.CODE):
#   label,bytes,bs,t,ksyms
# label as cpu-marks gets it ("RUN,ROUND,STACK,JOB,start|end"); bytes
# what the stack under test has moved so far, read just after the
# marker at both edges, so that the bytes' window is the instructions'
# shifted by the same few milliseconds at each end (at a fixed rate,
# the same number of I/Os); bs the job's block size (0: the job's ios
# column counts its I/Os); ksyms the copy of /proc/kallsyms that names
# the window's addresses, read after the window's end marker (modules
# only change between pairings; a copy is kept when it changed).

# What a window holds beyond the job is kept small and the same for
# every stack: the markers are asked of a resident insnmark (a pipe's
# round trip, not a fork and an exec), and the bytes are read with the
# shell's builtins.
PB_INSNMARK=$RDMASTOR_TREE/build/insncount/insnmark
PB_COST_BS=0
PB_COST_MNT=''

pb_cost_on() { [ -n "${COST:-}" ]; }

# pb_cost_marker: the resident insnmark, started once; its pipes are
# FIFOs opened as plain descriptors, which subshells inherit. It is not
# this shell's child, which pb_job's wait would wait for.
pb_cost_marker() {
	[ -n "${PB_MK_IN:-}" ] && return 0
	mkfifo /run/insnmark.in /run/insnmark.out || return 1
	( "$PB_INSNMARK" serve < /run/insnmark.in > /run/insnmark.out & )
	exec {PB_MK_IN}> /run/insnmark.in {PB_MK_OUT}< /run/insnmark.out
}

# pb_cost_bytes: bytes read and written so far through the stack under
# test: the block device's sectors, or the NFS mount's (PB_COST_MNT)
# bytes, normal and direct, read and written, as the application asked
pb_cost_bytes() {
	local s a b c d e on=''
	if [ -n "${PB_DEV:-}" ]; then
		read -r -a s < "/sys/block/${PB_DEV#/dev/}/stat"
		echo $(( (s[2] + s[6]) * 512 ))
		return
	fi
	while read -r a b c d e _; do
		[ "$a" = device ] && { [ "$e" = "$PB_COST_MNT" ] && on=1 || on=''; }
		[ -n "$on" ] && [ "$a" = bytes: ] && { echo $((b + c + d + e)); return; }
	done < /proc/self/mountstats
	echo 0
}

# pb_cost_ksyms: the name of the kept copy of /proc/kallsyms that is
# current (a new one when the modules changed)
pb_cost_ksyms() {
	local sum last n
	sum=$(md5sum < /proc/kallsyms)
	last=$(cat /tmp/pb_ksyms.sum 2>/dev/null)
	n=$(cat /tmp/pb_ksyms.n 2>/dev/null || echo 0)
	if [ "$sum" != "$last" ]; then
		n=$((n + 1))
		cat /proc/kallsyms > "$RDMASTOR_OUT/ksyms.$n"
		echo "$sum" > /tmp/pb_ksyms.sum
		echo "$n" > /tmp/pb_ksyms.n
	fi
	echo "ksyms.$n"
}

# pb_cost_mark LABEL: this guest's marker (start for a label ending in
# start, stop otherwise), the server guest's (the datagram to its
# cpu-marks, PB_PEER), and the row
pb_cost_mark() {
	local kind=stop bytes ksyms=''
	[[ "$1" == *,start ]] && kind=start
	[ -e "$RDMASTOR_OUT/cost-marks.csv" ] ||
		echo "label,bytes,bs,t,ksyms" > "$RDMASTOR_OUT/cost-marks.csv"
	echo "$kind" >&"$PB_MK_IN"
	read -r _ <&"$PB_MK_OUT"
	[ -z "${PB_PEER:-}" ] || echo "$1" > "/dev/udp/${PB_PEER%:*}/${PB_PEER#*:}" 2>/dev/null || true
	bytes=$(pb_cost_bytes 2>/dev/null)
	[ "$kind" = stop ] && ksyms=$(pb_cost_ksyms)
	echo "$1,${bytes:-0},$PB_COST_BS,$EPOCHREALTIME,$ksyms" >> "$RDMASTOR_OUT/cost-marks.csv"
}

# pb_cost_insnmark: the marker program when make bench asked for the
# cost mode (a server guest's cpu-marks' third argument), else nothing
pb_cost_insnmark() {
	# shellcheck disable=SC1091
	( [ -f "$RDMASTOR_TREE/build/bench/pairbench.env" ] &&
		. "$RDMASTOR_TREE/build/bench/pairbench.env"
	  [ -n "${COST:-}" ] && echo "$PB_INSNMARK" )
}
