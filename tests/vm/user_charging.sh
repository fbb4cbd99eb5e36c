# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-group: user (one guest boot: tests/lib/check)
# vm-run: --mem 4096
#
# User charging is the administrator's choice (Documentation/
# user-level.rst, "Turning it on"): rnic_mgr loaded with no option leaves
# every verbs program as it was; "monitor" counts registrations and
# never refuses or delays one; "on" governs them. Per device, at load
# (the devices option, by name glob, also for a device renamed later)
# and at run time (sysfs user_charging).
#   - off: one program registers 2 GiB in one MR and 10,000 one-page
#     MRs, as without rdmastor; nothing is seen;
#   - monitor: the same program runs as before, and its registrations
#     are counted while it holds them, and no longer once it exits;
#   - on: the same program is governed: the 2 GiB MR is more than the
#     device's budget, and the small ones stop at its key budget, each
#     refusal logged;
#   - a mode change applies to what is registered from then on; turning
#     a device off forgets what was charged, and the program goes on;
#   - the devices option sets mode, policy and budgets before any
#     consumer starts, and follows a device that is renamed;
#   - a device being added: its directory appears (and a udev rule may
#     turn charging on) before the add is done, and a program may
#     register on it at once: it is charged, nothing breaks (U4);
#   - names a user chooses (a program's, a cgroup's) reach sysfs, and so
#     the administrator's terminal, with no control character in them;
#   - turning charging off does not wait for registrations waiting for
#     entries (REGISTER-WAIT, however long user_wait_ms): they go to the
#     driver uncharged, as registrations made after the change do.
. tests/lib/guest/lib.sh

DEV=rxe0
SYS=/sys/kernel/rnic_mgr/devices/$DEV
P=/sys/module/rnic_mgr/parameters
UMR=build/tools/umr
BIG=524288	# 2 GiB in 4 KiB pages
SMALL=10000

nr_user() { ls -d $SYS/consumers/user:* 2>/dev/null | wc -l; }
# workload TAG: the program, holding everything until its stdin ends
workload_start() {
	fifo=$(mktemp -u /tmp/chg.XXXX)
	mkfifo "$fifo"
	$UMR $DEV reg:$BIG many:$SMALL:1 wait < "$fifo" > "/tmp/chg.$1" 2>&1 &
	WPID=$!
	exec {WFD}> "$fifo"
}
workload_end() { exec {WFD}>&-; wait "$WPID"; }

check "rdmastor modules installed" rdmastor_install
check "soft-RoCE on a dummy device" tests/lib/guest/rxe-setup single
check "rnic_mgr loads with no option" modprobe rnic_mgr
expect_eq "user registrations are off by default" "$(cat $SYS/user_charging)" off
check "and the device said so when added" sh -c "dmesg | grep -q 'device rxe0 added, .* user registrations off'"

# --- off ---
workload_start off
check "off: 2 GiB in one MR and 10,000 one-page MRs are registered" \
	wait_for 300 grep -q waiting /tmp/chg.off
diag "off: $(grep -v waiting /tmp/chg.off | tr '\n' ' ')"
check "off: each one succeeded" sh -c "grep -q '^reg $BIG ok' /tmp/chg.off && grep -q '^many $SMALL ok' /tmp/chg.off"
expect_eq "off: nothing counted, no consumer" "$(cat $SYS/user_mrs) $(nr_user)" "0 0"
workload_end
check "off: the program ends as it would without rdmastor" [ $? = 0 ]

# --- monitor ---
check "monitor: turned on at run time" sh -c "echo monitor > $SYS/user_charging"
check_not "a mode that does not exist is refused" sh -c "echo maybe > $SYS/user_charging"
workload_start monitor
check "monitor: the same registrations succeed" wait_for 300 grep -q waiting /tmp/chg.monitor
diag "monitor: $(grep -v waiting /tmp/chg.monitor | tr '\n' ' ')"
check "monitor: none was refused" sh -c "grep -q '^reg $BIG ok' /tmp/chg.monitor && grep -q '^many $SMALL ok' /tmp/chg.monitor"
expect_eq "monitor: they are counted (MRs, entries)" \
	"$(cat $SYS/user_mrs) $(cat $SYS/user_entries)" "$((SMALL + 1)) $((BIG + SMALL))"
expect_eq "monitor: no consumer is charged: the arbiter's pool is untouched" \
	"$(nr_user) $(cat $SYS/free)" "0 $(cat $SYS/budget)"
workload_end
check "monitor: the program ends as before" [ $? = 0 ]
expect_eq "monitor: once it exits nothing is counted, and the peak stays" \
	"$(cat $SYS/user_mrs) $(cat $SYS/user_entries) $(cat $SYS/user_peak)" "0 0 $((BIG + SMALL))"

# --- on ---
echo 1000 > $P/user_wait_ms
dmesg -C
check "on: turned on at run time" sh -c "echo on > $SYS/user_charging"
$UMR $DEV reg:$BIG many:$SMALL:1 > /tmp/chg.on 2>&1
rc=$?
diag "on: $(tr '\n' ' ' < /tmp/chg.on)"
check "on: the program is governed (exit $rc, a registration refused)" [ $rc = 2 ]
check "on: 2 GiB is more than the device's budget: ENOMEM" grep -q "^reg $BIG fail ENOMEM" /tmp/chg.on
kb=$(cat $SYS/key_budget)
n=$(sed -n "s/^many $SMALL fail at \([0-9]*\) .*/\1/p" /tmp/chg.on)
check "on: the small ones stop at the key budget (at ${n:-none}, budget $kb)" \
	sh -c "[ -n '$n' ] && [ '$n' -le $kb ] && [ '$n' -ge $((kb / 2)) ]"
dmesg > /tmp/chg.dmesg
diag "$(grep 'refused' /tmp/chg.dmesg | head -n1)"
check "on: each refusal is logged with the process and the budget" \
	grep -q "rxe0: user:umr:[0-9]*: a registration of $BIG pages refused (more than the budget): it holds 0, the device's budget is [0-9]* entries" /tmp/chg.dmesg
all_free() { [ "$(nr_user)" = 0 ] && [ "$(cat $SYS/free)" = "$(cat $SYS/budget)" ]; }
wait_for 30 all_free
check "on: nothing charged once it exited (consumers $(nr_user), free $(cat $SYS/free) of $(cat $SYS/budget), keys free $(cat $SYS/key_free) of $(cat $SYS/key_budget))" all_free
all_free || diag "$(cat $SYS/table)"

# --- changes at run time, with registrations held ---
fifo=$(mktemp -u /tmp/chg.XXXX)
mkfifo "$fifo"
$UMR $DEV reg:100 wait reg:10 dereg dereg < "$fifo" > /tmp/chg.live 2>&1 &
lpid=$!
exec {lfd}> "$fifo"
check "on: a program holds 100 entries" wait_for 20 grep -q waiting /tmp/chg.live
expect_eq "its consumer holds them" "$(cat $SYS/consumers/user:umr:$lpid.*/held 2>/dev/null)" 100
check "on -> monitor" sh -c "echo monitor > $SYS/user_charging"
expect_eq "what was charged stays charged" "$(cat $SYS/consumers/user:umr:$lpid.*/held 2>/dev/null)" 100
t0=$(date +%s%N)
check "monitor -> off" sh -c "echo off > $SYS/user_charging"
diag "off took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
expect_eq "off forgets every charge and count" "$(nr_user) $(cat $SYS/user_mrs) $(cat $SYS/free)" "0 0 $(cat $SYS/budget)"
exec {lfd}>&-
wait $lpid
check "the program registers and deregisters on, unharmed (exit $?)" \
	sh -c "[ $? = 0 ] && grep -q '^reg 10 ok' /tmp/chg.live && [ \$(grep -c '^dereg ok' /tmp/chg.live) = 2 ]"
check "rnic_mgr unloads" modprobe -r rnic_mgr

# --- boot configuration: the devices option ---
check "rnic_mgr loads with a devices option" \
	modprobe rnic_mgr 'devices=rxe*:user=monitor:policy=fcfs:entries=50000:keys=3000'
expect_eq "rxe0 at add: monitor, fcfs, 50000 entries, 3000 keys" \
	"$(cat $SYS/user_charging) $(cat $SYS/policy) $(cat $SYS/budget) $(cat $SYS/key_budget)" \
	"monitor fcfs 50000 3000"
check_not "a malformed devices list is refused" sh -c "echo 'rxe*:user=maybe' > $P/devices"
expect_eq "and the rules stay" "$(cat $P/devices)" "rxe*:user=monitor:policy=fcfs:entries=50000:keys=3000"
check "rnic_mgr unloads" modprobe -r rnic_mgr
check "rnic_mgr loads with rules by the names rdma-core gives" \
	modprobe rnic_mgr 'devices=rxe0:user=off,ren*:user=on:policy=static'
expect_eq "rxe0: off" "$(cat $SYS/user_charging)" off
check "rdma dev set rxe0 name ren0 (as rdma-core's udev rules rename)" rdma dev set rxe0 name ren0
check "rnic_mgr follows the name" wait_for 10 test -d /sys/kernel/rnic_mgr/devices/ren0
check "and applies ren*'s rule: on, static" wait_for 10 sh -c \
	"[ \"\$(cat /sys/kernel/rnic_mgr/devices/ren0/user_charging) \$(cat /sys/kernel/rnic_mgr/devices/ren0/policy)\" = 'on static' ]"
check "renamed back" rdma dev set ren0 name rxe0
check "rxe0's rule applies again: off" wait_for 10 sh -c "[ \"\$(cat $SYS/user_charging)\" = off ]"
# A rename while the name is read (review 4, N11): the fault switch
# writes the new name a byte every 10 ms; every read of it meanwhile
# (sysfs here; messages and trace events read it the same way) is one
# name, the old or the new, never a mix of both.
LONG=rdmastor_renamed_device_0
before=$(cat /sys/kernel/rnic_mgr/devices/*/ibdev)
echo 10 > /sys/kernel/debug/rnic_mgr/rename_byte_delay_ms
(
	end=$((SECONDS + 3))
	while [ $SECONDS -lt $end ]; do cat /sys/kernel/rnic_mgr/devices/*/ibdev; done
) > /tmp/names 2>/dev/null &
reader=$!
sleep 0.3
check "rdma dev set rxe0 name $LONG, a byte every 10 ms" rdma dev set rxe0 name $LONG
wait $reader
echo 0 > /sys/kernel/debug/rnic_mgr/rename_byte_delay_ms
printf '%s\n' "$LONG" $before > /tmp/names.whole
mixed=$(sort -u /tmp/names | grep -vxFf /tmp/names.whole | head -n3 | paste -sd' ')
diag "names read during the rename: $(sort /tmp/names | uniq -c | paste -sd' ')"
expect_eq "each read of the name during the rename was whole" "$mixed" ""
check "renamed back again" rdma dev set $LONG name rxe0
check "rnic_mgr unloads" modprobe -r rnic_mgr

# --- a device being added ---
# The fault switch holds the add for 3 s once the device's directory is
# there: charging is turned on, and a program registers, meanwhile.
check "rnic_mgr loads" modprobe rnic_mgr
NEW=/sys/kernel/rnic_mgr/devices/rxe9
echo 3000 > /sys/kernel/debug/rnic_mgr/dev_add_delay_ms
ip link add dummy9 type dummy && ip link set dummy9 up
rdma link add rxe9 type rxe netdev dummy9 &
apid=$!
check "a new device's directory appears" wait_for 10 test -d $NEW
on_rc=0
echo on 2>/tmp/chg.add > $NEW/user_charging || on_rc=1
diag "charging turned on while the add is held: exit $on_rc $(cat /tmp/chg.add)"
$UMR rxe9 reg:10 > /tmp/chg.add 2>&1
rc=$?
diag "a registration on the device while its add is held: exit $rc, $(tr '\n' ' ' < /tmp/chg.add)"
check "a registration while the add is held succeeds" grep -q '^reg 10 ok' /tmp/chg.add
wait $apid
check "the add finishes (exit $?)" [ $? = 0 ]
echo 0 > /sys/kernel/debug/rnic_mgr/dev_add_delay_ms
[ "$on_rc" != 0 ] || expect_eq "and charging is on" "$(cat $NEW/user_charging)" on
check "the device goes" rdma link delete rxe9
check "rnic_mgr unloads" modprobe -r rnic_mgr

# --- names a user chooses, shown to the administrator ---
check "rnic_mgr loads, charging on" modprobe rnic_mgr 'devices=rxe0:user=on'
ESC=$(printf '\033')
odd="/tmp/u${ESC}[7m x"
cp $UMR "$odd"
fifo=$(mktemp -u /tmp/chg.XXXX)
mkfifo "$fifo"
in_cgroup "t${ESC}[7m y" "$odd" $DEV reg:10 wait < "$fifo" > /tmp/chg.odd 2>&1 &
opid=$!
exec {ofd}> "$fifo"
check "a program named with an escape sequence registers, in a cgroup named so" \
	wait_for 20 grep -q waiting /tmp/chg.odd
diag "consumers: $(ls $SYS/consumers | cat -v | paste -sd' '); tenants: $(cat -v $SYS/tenants | paste -sd'|')"
check "no control character in the consumers' names" sh -c "! ls $SYS/consumers | LC_ALL=C grep -q '[^[:print:]]'"
check "nor in the tenants'" sh -c "! LC_ALL=C grep -q '[^[:print:]]' $SYS/tenants"
check "the consumer's name still says which program" sh -c "ls $SYS/consumers | grep -q '^user:u__7m_x:'"
check "and the tenant's which cgroup" grep -q '^cgroup:/.*/t__7m_y ' $SYS/tenants
exec {ofd}>&-
wait $opid
rm -f "$odd"
check "rnic_mgr unloads" modprobe -r rnic_mgr

# --- a mode change while a registration waits ---
check "rnic_mgr loads, charging on, 8000 entries" modprobe rnic_mgr 'devices=rxe0:user=on:entries=8000'
echo 60000 > $P/user_wait_ms
fifo=$(mktemp -u /tmp/chg.XXXX)
mkfifo "$fifo"
$UMR $DEV reg:6000 wait < "$fifo" > /tmp/chg.holder 2>&1 &
hpid=$!
exec {hfd}> "$fifo"
check "a program holds 6000 entries" wait_for 20 grep -q waiting /tmp/chg.holder
$UMR $DEV reg:6000 > /tmp/chg.waiter 2>&1 &
wpid=$!
check "a second one waits for 6000 more (REGISTER-WAIT, up to 60 s)" \
	wait_for 20 sh -c "[ \$(cat $SYS/waiting) -ge 1 ]"
t0=$(date +%s%N)
echo off > $SYS/user_charging
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
wait $wpid
rc=$?
diag "off took $ms ms with a registration waiting; it: exit $rc, $(tr '\n' ' ' < /tmp/chg.waiter)"
check "off does not wait for it: $ms ms" [ $ms -le 5000 ]
check "the waiting registration goes to the driver, uncharged" grep -q '^reg 6000 ok' /tmp/chg.waiter
exec {hfd}>&-
wait $hpid
echo 10000 > $P/user_wait_ms
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
