# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# rdmastor installed from its Debian packages and used only through the
# stock tools, as an administrator would (Documentation/admin.rst), in
# one guest (rxe0 loopback). tests/vm/deb_install.host has installed
# rdmastor with apt-get from a signed repository of make repo's into an
# overlay of the host's root whose apt knows that repository only (on
# the oldest series, the previous build first, then upgraded; DKMS built
# the modules for this kernel there, natively); this guest boots with
# that overlay's changes as its
# top layer (vm-run --layer), so it sees a host with rdmastor installed
# and nothing of the tree's own modules (on the oldest series, a host
# with that kernel only; on the newest, one with both), and:
#   - modprobe finds DKMS's modules, built from this tree;
#   - /etc/rdmastor/rnic_mgr.conf, applied (rnic_mgr's options), holds
#     when rxe0 appears, after a rename (rdma dev set), after a device
#     reset and rename again, and when rnic_mgr is reloaded;
#   - rpc.nfsd with rdma=y in nfs.conf starts rdmastor's server, mount -o
#     proto=rdma mounts through rdmastor's client, targetcli's
#     enable_iser loads rdmastor's target, iscsiadm -I iser logs in
#     through rdmastor's initiator; fio verifies through each;
#   - with rdmastor's iSER modules deleted (a kernel DKMS did not build
#     for), the routing falls back: targetcli and iscsiadm reach ib_isert
#     and ib_iser, and the kernel log says why;
#   - apt-get remove, not purge (with the NFS mount and nfsd still up),
#     names the NFS modules in use, loses no data, and takes the routing
#     with the modules; the configuration stays;
#   - then the same NFS commands reach the stock modules (and the iSER
#     names are stock's), and apt-get purge leaves nothing on disk.
# vm-run: --layer build/deb-test/layer-{kernel} --timeout 1200
# vm-kernels: 6.1 6.12:core
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
kver=$(uname -r)
MODS="rnic_mgr rdmastor_transport rdmastor_rpcrdma rdmastor_svcrdma rdmastor_isert rdmastor_iser"
state=$RDMASTOR_TREE/build/deb-test

pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
loaded() { grep -q "^$1 " /proc/modules; }
sysval() { cat "/sys/kernel/rnic_mgr/devices/${2:-rxe0}/$1" 2>/dev/null; }
is_val() { [ "$(sysval "$1" "${3:-}")" = "$2" ]; }

diag "host: DKMS built the modules in $(cat "$state/dkms-seconds" 2>/dev/null) s"
check "rdmastor-dkms is installed" pkg_installed rdmastor-dkms || bail "no packages"
check "rdmastor-utils is installed" pkg_installed rdmastor-utils
check "librnic0 and librnic-dev are installed" sh -c "dpkg-query -W librnic0 librnic-dev >/dev/null"
# from the repository, the only source apt has
expect_eq "apt's sources: the repository alone" \
	"$(grep -rh '^URIs:' /etc/apt/sources.list.d/ | paste -sd' ') $(ls /etc/apt/sources.list 2>/dev/null)" \
	"URIs: file://$state/repo "
check "apt-cache policy: the installed rdmastor is the repository's newest" \
	sh -c "apt-cache policy rdmastor | grep -A1 '^ \*\*\* ' | grep -q 'file:$state/repo'"

# librnic as a program's build would use it: only what pkg-config says,
# against the packaged headers and library
cat > /tmp/usernic.c <<'C'
#include <stdio.h>
#include <librnic/regcache.h>

static int regs;
static int reg(void *c, uintptr_t a, size_t l, void **h) { (void)c; (void)l; *h = (void *)a; regs++; return 0; }
static void dereg(void *c, void *const *h, size_t n) { (void)c; (void)h; (void)n; }

int main(void)
{
	const struct rnic_cache_ops ops = { reg, dereg };
	struct rnic_cache *c = rnic_cache_create(&ops, NULL, 4096, 64);
	struct rnic_cache_seg s[4];
	int n = rnic_cache_get(c, 0x100000, 16384, s, 4);

	rnic_cache_put(c, s, n);
	n = rnic_cache_get(c, 0x101000, 4096, s, 4);
	rnic_cache_put(c, s, n);
	printf("regs %d hits %llu\n", regs, (unsigned long long)rnic_cache_get_stats(c)->hits);
	rnic_cache_destroy(c);
	return regs != 1;
}
C
check "librnic-dev: a program builds with pkg-config's flags" \
	sh -c 'cc -o /tmp/usernic /tmp/usernic.c $(pkg-config --cflags --libs librnic)'
diag "usernic: $(/tmp/usernic 2>&1); $(ldd /tmp/usernic | grep librnic)"
check "librnic0: it runs" /tmp/usernic
check "against the packaged library (ld.so's cache names it under /lib or /usr/lib)" \
	sh -c "ldd /tmp/usernic | grep -Eq 'librnic.so.0 => (/usr)?/lib/x86_64-linux-gnu/librnic.so.0'"
check "librnic0: the shim is packaged" test -f /usr/lib/x86_64-linux-gnu/librnic/librnic_shim.so
# the guest has no module layer of the tree's (build/vm/modlayer): a
# real host has only what the packages installed
check "no module tree but DKMS's" sh -c "! ls /lib/modules/$kver/updates/rdmastor 2>/dev/null | grep -q ."
# DKMS built them from this tree's product sources (make deb packs the
# committed tree). Not compared by srcversion: make check builds the
# tree's own modules with the test switches (RDMASTOR_DEBUG), a product
# build has other sources.
src=$(ls -d /usr/src/rdmastor-* | head -n1)
same_src() {
	local d
	for d in Kbuild include kcompat common rnic_mgr transport fs iser; do
		diff -rq -x '*.o' -x '*.ko' -x '*.mod' -x '*.mod.c' -x '.*' -x modules.order \
			-x kcompat_config.h \
			"$src/$d" "$RDMASTOR_TREE/$d" || return 1
	done
}
check "DKMS's source ($src) is this tree's" same_src
# switches_in KO: the test switches a module carries (functions, and
# the names of their debugfs files); none in a product build
switches_in() {
	strip -g -o /tmp/switches.ko "$1" &&
		{ nm /tmp/switches.ko | grep -E ' (rst|rnic|ist|ini)_fault'
		  strings /tmp/switches.ko | grep -E 'fail_rw_init|mr_busy|read_post_delay|fail_consumer_sysfs|fail_rx_hold|fault_(wrong_inv|no_inv|dup_rsp|bogus_itt|stale_write|silent)|inv_delay_ms'; }
}
for m in $MODS; do
	ko=$(modinfo -n "$m" 2>/dev/null)
	expect_match "modprobe finds $m built by DKMS" "$ko" "/updates/dkms/$m\.ko"
	expect_eq "and it carries no test switch" "$(switches_in "$ko" | paste -sd' ')" ""
done

# The configuration: the administrator writes the file and applies it;
# it becomes rnic_mgr's options, which the kernel applies to each device
# as it appears and after each rename (rdma-core's, or by hand)
cat >> /etc/rdmastor/rnic_mgr.conf <<'EOF'
param revoke_deadline_ms 700
device rxe*  entries 50000 keys 3000
device rocep9s0 entries 60000
weight nfs-192.0.2.1 3
EOF
check "rnic-mgr-config check: the file parses" rnic-mgr-config check
check "rnic-mgr-config apply: it writes rnic_mgr's options" \
	sh -c "rnic-mgr-config apply && grep -q '^options rnic_mgr .*devices=rxe\*:entries=50000:keys=3000,rocep9s0:entries=60000' /etc/modprobe.d/rdmastor-rnic-mgr.conf"
check "nothing of rdmastor's runs from udev" sh -c "! grep -rqs 'rdmastor\|rnic' /lib/udev/rules.d /etc/udev/rules.d"
mkdir -p /run/udev
check "udevd runs" /lib/systemd/systemd-udevd --daemon
check "soft-RoCE rxe0 appears" tests/lib/guest/rxe-setup single || bail "no rxe0"
check "rnic_mgr loads" modprobe rnic_mgr
check "the entry budget applies to rxe0 (50000)" wait_for 5 is_val budget 50000
check "and the key budget (3000)" is_val key_budget 3000
check "and rnic_mgr's revoke_deadline_ms (700)" \
	[ "$(cat /sys/module/rnic_mgr/parameters/revoke_deadline_ms)" = 700 ]
# renamed while rnic_mgr runs, as rdma-core's naming does at boot
check "rdma dev set rxe0 name rocep9s0" rdma dev set rxe0 name rocep9s0
check "the budget of the new name applies (60000)" wait_for 5 is_val budget 60000 rocep9s0
# removed and added again (a device reset), then renamed again
check "device reset: removed, and added again as rxe0" \
	sh -c "rdma link delete rocep9s0 && rdma link add rxe0 type rxe netdev dummy0"
check "the new rxe0 has its budget (50000)" wait_for 5 is_val budget 50000
# rename_to OLD NEW BUDGET: renamed, NEW's budget applies
rename_to() { rdma dev set "$1" name "$2" && wait_for 5 is_val budget "$3" "$2"; }
check "renamed again: the new name's budget applies (60000)" rename_to rxe0 rocep9s0 60000
check "and back to rxe0 (50000)" rename_to rocep9s0 rxe0 50000
echo 1234 > /sys/kernel/rnic_mgr/devices/rxe0/budget
check "rnic_mgr unloads" rmmod rnic_mgr
check "rnic_mgr loaded again" modprobe rnic_mgr
check "the budget is applied again when rnic_mgr loads" wait_for 5 is_val budget 50000
udevadm settle -t 20

# NFS through the stock tools: nfs.conf asks rpc.nfsd for an RDMA listener
mkdir -p $EXPORT /mnt/nfs
sed -i 's/^# rdma=n/rdma=y/; s/^# rdma-port=20049/rdma-port=20049/' /etc/nfs.conf
mount -t tmpfs -o size=256m tmpfs $EXPORT && chmod 1777 $EXPORT
nfsd_up() {	# the server as a host starts it; rpc.nfsd reads nfs.conf
	modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; } &&
		mkdir -p /run/rpcbind /var/lib/nfs/v4recovery &&
		{ pgrep -x rpcbind >/dev/null || rpcbind -w; } &&
		echo "$EXPORT 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=0)" > /etc/exports &&
		exportfs -ra && { pgrep -x rpc.mountd >/dev/null || rpc.mountd; } &&
		rpc.nfsd 4 && grep -q "rdma 20049" /proc/fs/nfsd/portlist
}
nfs_io() {	# nfs_io WHO: mount over RDMA, verified I/O (leaves it mounted)
	check "$1: mount -t nfs -o vers=3,proto=rdma" \
		mount -t nfs -o vers=3,proto=rdma,port=20049,nolock 192.0.2.1:$EXPORT /mnt/nfs &&
	check "$1: 4 KiB random and 1 MiB sequential, verified" eval \
		"fio_verify r4k-$1 --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8 &&
		 fio_verify s1m-$1 --size=4m --bs=1m --rw=write --direct=1 --ioengine=psync"
}
check "rpc.nfsd with rdma=y in nfs.conf listens on rdma 20049" nfsd_up
check "nfsd's listener loaded rdmastor_svcrdma" loaded rdmastor_svcrdma
nfs_io rdmastor
check "the mount loaded rdmastor_rpcrdma, not the stock rpcrdma" \
	sh -c "grep -q '^rdmastor_rpcrdma ' /proc/modules && ! grep -q '^rpcrdma ' /proc/modules"
# consumer_weights from the file: the mount of 192.0.2.1 weighs 3
expect_eq "the mount's consumer is named by its server, and weighs 3 (weight nfs-192.0.2.1 3)" \
	"$(cat /sys/kernel/rnic_mgr/devices/rxe0/consumers/nfs-*/name /sys/kernel/rnic_mgr/devices/rxe0/consumers/nfs-*/weight 2>/dev/null | sort -u | paste -sd' ')" \
	"3 nfs-192.0.2.1"
head -c 3000000 /dev/urandom > /tmp/keep && cp /tmp/keep /mnt/nfs/keep

# rdmastor status, read once per phase (a python start and a scan of
# modules.dep and the DKMS trees: seconds under TCG, each time)
status_now() { rdmastor status > /tmp/status.txt && sed 's/^/# /' /tmp/status.txt; }
# the protocol's line in it (serving, module, next)
proto_is() { awk -v p="$1" '$1 == p { print $2, $3, $4 }' /tmp/status.txt; }

# iSER through the stock tools: targetcli and iscsiadm, nothing loaded by hand
iser_io() {	# iser_io WHO: a target, a login, verified fio, logout
	local dev
	check "$1: targetcli: a target with enable_iser" iser_target_create_tcli 1 1 64M || return 1
	mkdir -p /etc/iscsi /run/lock/iscsi
	echo "InitiatorName=iqn.2026-11.org.rdmastor:initiator" > /etc/iscsi/initiatorname.iscsi
	pgrep -x iscsid >/dev/null || iscsid
	check "$1: iscsiadm -I iser discovery and login" iser_login 1 || return 1
	wait_for 30 iser_disk 1 0 || { ok 1 "$1: the LUN appears"; return 1; }
	dev=$(iser_disk 1 0)
	check "$1: 4 KiB random read/write on the LUN, verified" \
		iser_fio "deb-$1" "$dev" --rw=randrw --bs=4k --iodepth=16 --size=16M --io_size=16M
}
# (core scope: NFS only; iSER on 6.12 has an open defect, testing.rst)
protos="nfs-client:rdmastor_rpcrdma nfs-server:rdmastor_svcrdma"
if full_scope; then
	iser_io rdmastor
	protos="$protos iser-target:rdmastor_isert iser-initiator:rdmastor_iser"
fi
status_now
for p in $protos; do
	p=${p/:/ }
	set -- $p
	expect_eq "rdmastor status: $1 served by rdmastor ($2), and so the next use" \
		"$(proto_is "$1")" "rdmastor $2 rdmastor"
done
# DKMS built for every supported kernel installed (on the newest
# series, this one and the older one: the host's postinst built both,
# tests/vm/deb_install.host)
pkgver=$(dpkg-query -W -f='${Version}' rdmastor-dkms)
for d in /lib/modules/6.1.* /lib/modules/6.12.*; do
	k=${d##*/}
	[ -e "$d/build/Makefile" ] || continue
	expect_eq "rdmastor status: DKMS built $k's modules, version $pkgver" \
		"$(grep -F "  $k" /tmp/status.txt | sed 's/.*: //')" "built, version $pkgver"
done
# which build is loaded: the modules say their version, and status
# compares it with the installed build's
for m in rnic_mgr rdmastor_transport rdmastor_rpcrdma rdmastor_svcrdma; do
	expect_eq "$m loaded says the package's version" "$(cat /sys/module/$m/version)" "$pkgver"
done
check "rdmastor status: the loaded modules are the installed build" \
	grep -qxF "Loaded: version $pkgver, the installed build" /tmp/status.txt
check "rdmastor status --json parses, and names rxe0's budget" \
	sh -c "rdmastor status --json | python3 -c 'import json, sys; d = json.load(sys.stdin); sys.exit(0 if [x for x in d[\"rnic_mgr\"][\"devices\"] if x[\"device\"] == \"rxe0\" and x[\"budget\"] == 50000] else 1)'"
rdmastor status --prometheus > /tmp/status.prom
# judged by the Prometheus client library's own parser, and held to the
# names it writes; with the device's budget, the server's totals, the
# client's transport and the build
xprt=$(ls /sys/kernel/rdmastor_rpcrdma/xprts | head -n1)
check "rdmastor status --prometheus: the client library's parser accepts it, with the budget, the NFS totals and the build" \
	sh -c "tests/tools/prom_check.py 'rdmastor_device_budget_entries{device=\"rxe0\"}=50000' \
		'rdmastor_nfs_server_calls_total=>0' \
		'rdmastor_nfs_client_read_chunks_total{xprt=\"$xprt\",peer=\"192.0.2.1 20049\"}=>0' \
		'rdmastor_build_info{version=\"$pkgver\",kernel=\"$(uname -r)\"}=1' < /tmp/status.prom"
# the metrics timer: shipped, off until enabled; its command replaces
# the collector's file whole
check "rdmastor-metrics.timer is installed, and not enabled" \
	sh -c "[ -e /lib/systemd/system/rdmastor-metrics.timer ] && [ -e /lib/systemd/system/rdmastor-metrics.service ] &&
	       ! ls /etc/systemd/system/*.wants/rdmastor-metrics.* 2>/dev/null | grep -q ."
mkdir -p /var/lib/prometheus/node-exporter
check "its command writes node-exporter's textfile, which the parser accepts" \
	sh -c "$(sed -n 's/^ExecStart=//p' /lib/systemd/system/rdmastor-metrics.service) &&
	       tests/tools/prom_check.py < /var/lib/prometheus/node-exporter/rdmastor.prom &&
	       ! ls /var/lib/prometheus/node-exporter/ | grep -q tmp"
# on a regular user's PATH (Debian's default: no sbin)
check "a regular user runs rdmastor status --prometheus from their PATH" \
	runuser -u nobody -- env -i PATH=/usr/local/bin:/usr/bin:/bin sh -c "rdmastor status --prometheus > /dev/null"
check "rnic-top --json lists rxe0's consumers" \
	sh -c "rnic-top --json | python3 -c 'import json, sys; d = json.load(sys.stdin); sys.exit(0 if d[\"devices\"][0][\"consumers\"] else 1)'"
# Core scope (lib.sh's full_scope: make check's second kernel): the
# packages served NFS through rdmastor on this kernel; iSER, the
# fallback, remove and purge run on the first.
full_scope || tap_done

check "targetcli's enable_iser loaded rdmastor_isert, not ib_isert" \
	sh -c "grep -q '^rdmastor_isert ' /proc/modules && ! grep -q '^ib_isert ' /proc/modules"
check "iscsid's ib_iser loaded rdmastor_iser, not ib_iser" \
	sh -c "grep -q '^rdmastor_iser ' /proc/modules && ! grep -q '^ib_iser ' /proc/modules"
check "rdmastor: iscsiadm --logout" iser_logout 1
check "rdmastor: targetcli clearconfig" iser_target_clear_tcli
pkill -x iscsid
wait_for 10 sh -c '! pgrep -x iscsid'

# rdmastor's iSER modules missing for the running kernel (a kernel DKMS
# did not build for, a signature the kernel refuses), the routing in
# place: targetcli and iscsiadm reach the stock modules, and the kernel
# log says why.
check "rdmastor's iSER modules unload" sh -c "rmmod rdmastor_iser && rmmod rdmastor_isert"
rm -f /lib/modules/$kver/updates/dkms/rdmastor_iser.ko* /lib/modules/$kver/updates/dkms/rdmastor_isert.ko*
dmesg -C
iser_io fallback
dmesg > /tmp/fallback.log
grep "rdmastor:" /tmp/fallback.log | head -n2 | while read -r l; do diag "$l"; done
check "fallback: enable_iser loaded the stock ib_isert" loaded ib_isert
check "fallback: iscsid loaded the stock ib_iser" loaded ib_iser
status_now
expect_eq "fallback: rdmastor status says the stock target serves, and will" \
	"$(proto_is iser-target)" "stock ib_isert stock"
check "and why: no rdmastor_isert for this kernel" \
	grep -q "^iser-target .*no rdmastor_isert for kernel $kver: the routing falls back" /tmp/status.txt
check "fallback: a kernel log line says why the stock target serves" \
	grep -q "rdmastor: rdmastor_isert did not load (.*rdmastor_isert.*): the stock ib_isert serves" /tmp/fallback.log
check "fallback: and one why the stock initiator serves" \
	grep -q "rdmastor: rdmastor_iser did not load (.*rdmastor_iser.*): the stock ib_iser serves" /tmp/fallback.log
check "fallback: logout" iser_logout 1
iser_target_clear_tcli
pkill -x iscsid
wait_for 10 sh -c '! pgrep -x iscsid'
unload_iser() { ! loaded ib_iser || rmmod ib_iser || return 1; ! loaded ib_isert || rmmod ib_isert; }
check "fallback: the stock iSER modules unload" wait_for 20 unload_iser

# Remove (not purge) while nfsd and the mount are up. man-db's trigger
# (Debian's, run after any package with man pages) re-indexed the
# manual under TCG for 12 s of the purge's 59; nothing here tests it.
rm -f /var/lib/man-db/auto-update
# This host keeps no binary package cache (Debian's container images'
# docker-clean), so each apt-get parses the 19 MB of package lists
# again: 1.2 s natively, 25 s or more under TCG. A remove or a purge
# needs none of them, so apt here reads an empty lists directory; what
# the packages' scripts and dpkg do is unchanged.
mkdir -p /tmp/no-lists/partial
APT_NO_LISTS="-o Dir::State::Lists=/tmp/no-lists"
t0=$(date +%s)
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get $APT_NO_LISTS remove -y -q rdmastor-utils rdmastor-dkms \
	librnic-dev librnic0 > /tmp/remove.log 2>&1
ok $? "apt-get remove rdmastor-utils rdmastor-dkms librnic-dev librnic0"
# of its time, DKMS's depmod for this kernel takes about half (25 s
# under TCG); the host with two kernels is removed from natively
# (deb_install.host's remove_both)
diag "remove took $(($(date +%s) - t0)) s"
sed 's/^/# remove: /' /tmp/remove.log | grep -i "rdmastor\|error" | head -20
check "the remove named the NFS modules still in use" \
	grep -q "still in use, left loaded:.*rdmastor_svcrdma.*rdmastor_rpcrdma" /tmp/remove.log
check "the mount still works: its file reads back intact" cmp /tmp/keep /mnt/nfs/keep
left=$(ls -d /lib/modprobe.d/rdmastor-* /etc/modprobe.d/rdmastor-* /usr/src/rdmastor-* \
	/lib/modules/*/updates/dkms/rnic_mgr.ko* /lib/modules/*/updates/dkms/rdmastor_* 2>/dev/null)
expect_eq "the routing left with the modules" "$(echo $left)" ""
check "the configuration stays until a purge" test -f /etc/rdmastor/rnic_mgr.conf

check "modprobe knows no rdmastor module" sh -c "! modinfo rnic_mgr >/dev/null 2>&1"
check "svcrdma resolves to the stock rpcrdma again" [ "$(modprobe -R svcrdma 2>/dev/null)" = rpcrdma ]
check "ib_iser is the stock module again" sh -c "! modprobe -n -v ib_iser 2>&1 | grep -q rdmastor"
check "umount" umount /mnt/nfs
check "rpc.nfsd 0" rpc.nfsd 0
unload_left() {	# rmmod what the purge left loaded, in order
	local m
	for m in rdmastor_rpcrdma rdmastor_svcrdma rdmastor_transport rnic_mgr; do
		! loaded $m || rmmod $m || return 1
	done
}
check "then the NFS modules unload" wait_for 30 unload_left
check "no module of rdmastor is loaded" sh -c "! grep -q '^rdmastor_\|^rnic_mgr ' /proc/modules"

# The stock modules serve the same commands
check "stock: rpc.nfsd with rdma=y listens again" nfsd_up
check "stock: the listener loaded the stock rpcrdma" loaded rpcrdma
nfs_io stock
check "stock: the mount is on the stock rpcrdma" eval "loaded rpcrdma && ! loaded rdmastor_rpcrdma"
check "stock: umount" umount /mnt/nfs
# iSER's stock modules already served targetcli and iscsiadm above (the
# fallback); with the routing gone, the names are simply stock's again
check "stock: ib_isert and ib_iser are the stock modules, no install command" \
	sh -c "! modprobe -n -v ib_isert 2>&1 | grep -q rdmastor && ! modprobe -n -v ib_iser 2>&1 | grep -q rdmastor &&
	       modprobe -n -v ib_isert 2>&1 | grep -q 'ib_isert.ko' && modprobe -n -v ib_iser 2>&1 | grep -q 'ib_iser.ko'"
rpc.nfsd 0
check "still no module of rdmastor" sh -c "! grep -q '^rdmastor_\|^rnic_mgr ' /proc/modules"

# after a remove only a package with conffiles is still known to apt
# (librnic has none, and no archive has them): what is left to purge is
# rdmastor-utils' configuration and rdmastor-dkms' kernel hooks (which
# do nothing once /usr/lib/rdmastor/dkms-build is gone)
expect_eq "after the remove, dpkg keeps only the two packages' configuration" \
	"$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' rdmastor rdmastor-utils rdmastor-dkms librnic0 librnic-dev 2>/dev/null | grep -v not-installed | sort | paste -sd' ')" \
	"rdmastor-dkms config-files rdmastor-utils config-files"
check "and rdmastor-dkms' kernel hooks do nothing" sh -c \
	"/etc/kernel/postinst.d/rdmastor $kver && ! test -e /var/lib/rdmastor/dkms"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get $APT_NO_LISTS purge -y -q rdmastor-utils rdmastor-dkms > /tmp/purge.log 2>&1
ok $? "apt-get purge rdmastor-utils rdmastor-dkms" "$(tail -3 /tmp/purge.log)"
for p in rdmastor rdmastor-utils rdmastor-dkms librnic0 librnic-dev; do
	check_not "$p is gone" pkg_installed $p
done
left=$(ls -d /lib/modprobe.d/rdmastor-* /etc/modprobe.d/rdmastor-* /etc/rdmastor \
	/usr/src/rdmastor-* /var/lib/dkms/rdmastor /var/lib/rdmastor /etc/kernel/*/rdmastor \
	/usr/lib/rdmastor \
	/lib/udev/rules.d/*rdmastor* /usr/bin/rnic-top /usr/sbin/rnic-mgr-config /usr/bin/rdmastor \
	/lib/systemd/system/rdmastor-metrics.* /var/lib/prometheus/node-exporter/rdmastor.prom \
	/lib/modules/*/updates/dkms/rnic_mgr.ko* /lib/modules/*/updates/dkms/rdmastor_* \
	/usr/lib/x86_64-linux-gnu/librnic* /usr/include/librnic 2>/dev/null)
expect_eq "nothing of rdmastor is left on disk" "$(echo $left)" ""
udevadm control --exit 2>/dev/null
tap_done
