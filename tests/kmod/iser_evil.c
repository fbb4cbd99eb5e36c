// SPDX-License-Identifier: GPL-2.0
/*
 * iser_evil: a test-only iSER "initiator" that connects to an iSER
 * target and sends one message of the kind its mode names, to drive the
 * target's error paths. Each run is one connection:
 *
 *   insmod iser_evil.ko
 *   echo MODE > /sys/module/iser_evil/parameters/run
 *   cat /sys/module/iser_evil/parameters/result
 *
 * result: "reply 0xNN" (the opcode of the first PDU the target sent),
 * "dropped" (the target ended the connection), "refused" (the connect
 * failed), or "silent" (neither within 5 s).
 *
 * Modes:
 *   login      a well-formed discovery login request (expect a reply)
 *   short      20 bytes: no whole iSER and iSCSI header
 *   hello      iSER Hello instead of iSCSI control
 *   rsvd       reserved iSER flag bits set
 *   zerostag   a write stag flagged valid but zero
 *   lyinglen   DataSegmentLength 8000 with 100 bytes sent
 *   hugedsl    DataSegmentLength 16 MiB - 1
 *   ahs        TotalAHSLength set
 *   notlogin   a SCSI command before any login
 *   badpdata   reserved bits in the connection's private data
 */
#include <linux/module.h>
#include <linux/inet.h>
#include <linux/completion.h>
#include <rdmastor/rst.h>
#include <rdmastor/iser_wire.h>

static char target[32] = "192.0.2.1";
module_param_string(target, target, sizeof(target), 0644);
MODULE_PARM_DESC(target, "target IPv4 address");

static ushort port = 3260;
module_param(port, ushort, 0644);
MODULE_PARM_DESC(port, "target port");

static char result[32] = "none";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "what the last run saw");

#define EVIL_MSG	ALIGN(ISER_HEADERS_LEN + 8192, 64)

static DECLARE_COMPLETION(evil_done);
static int evil_opcode = -1;
static bool evil_down;

static void evil_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool inv, u32 inv_rkey)
{
	if (evil_opcode < 0 && len >= ISER_HEADERS_LEN) {
		evil_opcode = ((const u8 *)buf)[ISER_HDR_LEN] & ISER_ISCSI_OP_MASK;
		complete(&evil_done);
	}
}

static void evil_disconnected(struct rst_conn *c, int reason)
{
	evil_down = true;
	complete(&evil_done);
}

static const struct rst_conn_ops evil_ops = {
	.recv = evil_recv,
	.disconnected = evil_disconnected,
};

static void put_be24(u8 *p, u32 v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

/* NUL-terminated keys; sizeof() - 1 drops the literal's own NUL */
static const char evil_keys[] =
	"InitiatorName=iqn.2026-11.org.rdmastor:evil\0SessionType=Discovery\0";
#define EVIL_KEYS_LEN	(sizeof(evil_keys) - 1)

/* A login request in @buf (iSER header, BHS, keys); returns its length. */
static u32 evil_login(u8 *buf)
{
	u8 *bhs = buf + ISER_HDR_LEN;

	iser_hdr_encode(buf);
	memset(bhs, 0, ISER_BHS_LEN);
	bhs[0] = 0x40 | ISER_ISCSI_OP_LOGIN;	/* immediate */
	bhs[1] = 0x80 | 0x04 | 0x03;		/* T, CSG operational, NSG full feature */
	put_be24(bhs + 5, EVIL_KEYS_LEN);
	bhs[8] = 0x80;				/* ISID: random format */
	bhs[13] = 0x01;
	bhs[19] = 0x01;				/* ITT 1 */
	memcpy(buf + ISER_HEADERS_LEN, evil_keys, EVIL_KEYS_LEN);
	return ISER_HEADERS_LEN + EVIL_KEYS_LEN;
}

/* The message of @mode in @buf; returns its length, 0 for no send. */
static u32 evil_build(const char *mode, u8 *buf)
{
	u32 len = evil_login(buf);
	u8 *bhs = buf + ISER_HDR_LEN;

	if (sysfs_streq(mode, "login") || sysfs_streq(mode, "badpdata"))
		return len;
	if (sysfs_streq(mode, "short"))
		return 20;
	if (sysfs_streq(mode, "hello")) {
		buf[0] = ISER_OP_HELLO;
		return len;
	}
	if (sysfs_streq(mode, "rsvd")) {
		buf[0] |= 0x01;
		return len;
	}
	if (sysfs_streq(mode, "zerostag")) {
		buf[0] |= ISER_FLAG_WSV;
		return len;
	}
	if (sysfs_streq(mode, "lyinglen")) {
		put_be24(bhs + 5, 8000);
		return ISER_HEADERS_LEN + 100;
	}
	if (sysfs_streq(mode, "hugedsl")) {
		put_be24(bhs + 5, 0xffffff);
		return len;
	}
	if (sysfs_streq(mode, "ahs")) {
		bhs[4] = 2;
		return len;
	}
	if (sysfs_streq(mode, "notlogin")) {
		memset(bhs, 0, ISER_BHS_LEN);
		bhs[0] = ISER_ISCSI_OP_SCSI_CMD;
		bhs[1] = 0x80 | 0x40;		/* F, R */
		bhs[32] = 0x28;			/* READ(10) */
		return ISER_HEADERS_LEN;
	}
	return 0;
}

static int evil_run(const char *mode)
{
	u8 pdata[ISER_CM_LEN] = { ISER_CM_ZBVA_NOT_SUP };
	struct rst_conn_params p = {
		.name = "iser-evil",
		.weight = 1,
		.recv_depth = 4,
		.send_depth = 4,
		.msg_size = EVIL_MSG,
		.private_data = pdata,
		.private_len = sizeof(pdata),
		.ops = &evil_ops,
	};
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct rst_conn *c;
	struct rst_tx *tx;
	u32 len;

	if (!in4_pton(target, -1, (u8 *)&sin.sin_addr, -1, NULL))
		return -EINVAL;
	if (sysfs_streq(mode, "badpdata"))
		pdata[0] |= 0x01;
	reinit_completion(&evil_done);
	evil_opcode = -1;
	evil_down = false;
	c = rst_connect((struct sockaddr *)&sin, &p, 5000);
	if (IS_ERR(c)) {
		snprintf(result, sizeof(result), "refused");
		return 0;
	}
	tx = rst_tx_get(c, 1000);
	if (IS_ERR(tx)) {
		rst_close(c);
		return PTR_ERR(tx);
	}
	len = evil_build(mode, rst_tx_buf(tx));
	if (!len) {
		rst_tx_put(c, tx);
		rst_close(c);
		return -EINVAL;
	}
	rst_tx_post(c, tx, len, NULL, false, 0);
	if (!wait_for_completion_timeout(&evil_done, 5 * HZ))
		snprintf(result, sizeof(result), "silent");
	else if (evil_opcode >= 0)
		snprintf(result, sizeof(result), "reply 0x%02x", evil_opcode);
	else
		snprintf(result, sizeof(result), "dropped");
	rst_close(c);
	return 0;
}

static int evil_run_set(const char *val, const struct kernel_param *kp)
{
	return evil_run(val);
}

static const struct kernel_param_ops evil_run_ops = {
	.set = evil_run_set,
};
module_param_cb(run, &evil_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write a mode: one connection, one message (see the source)");

static int __init evil_init(void)
{
	return 0;
}

static void __exit evil_exit(void)
{
}

module_init(evil_init);
module_exit(evil_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: an iSER initiator that sends malformed messages");
