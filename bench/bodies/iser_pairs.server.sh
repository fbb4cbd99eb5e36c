# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER pairings benchmark in two guests, target half: LIO exporting one
# 256 MiB RAM LUN over iSER on the virtio link; hookd, through which the
# initiator guest switches the target between stock ib_isert and
# rdmastor_isert (tests/lib/guest/iser-hooks: target-stock,
# target-rdmastor); cpu-marks, which records this guest's CPU at each
# measured window's edges (pairbench.sh, PB_PEER). The initiator half,
# iser_pairs.client.sh, runs the pairings and says when it is done.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "rdmastor installed" rdmastor_install
check "target: one 256 MiB RAM LUN over iSER" iser_target_create 1 1 256M || bail "no target"
# shellcheck source=bench/guest/pbcost.sh
. bench/guest/pbcost.sh
# shellcheck disable=SC2046	# the cost mode's marker, or no argument
bench/guest/cpu-marks 9999 "$RDMASTOR_OUT/server-cpu.csv" $(pb_cost_insnmark) &
tests/lib/guest/hookd "$ISER_IP" 7000 tests/lib/guest/iser-hooks & hookd=$!
check "hookd listens" wait_for 10 sh -c "ss -ltn | grep -q ':7000 '"
check "the initiator finishes (up to 7200 s)" wait_for 7200 test -e /tmp/iser-done
kill $hookd
echo quit > /dev/udp/127.0.0.1/9999
check "remove the target" iser_target_clear
tap_done
