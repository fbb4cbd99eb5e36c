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
 *
 * Session modes log in to target `iqn` as a Normal session first (result
 * "login failed ..." if that does not work), then:
 *
 *   readimm    a SCSI READ that carries immediate data, then a ping;
 *              result: the opcodes the target sent after login, in
 *              order, e.g. "0x3f 0x20" (Reject, NOP-In), "dropped" last
 *              if it ended the connection
 *   badtext    a text request "SendTargets=Alle" (a value LIO does not
 *              know); result as for readimm ("0x3f dropped": the Reject,
 *              then the connection ends, as LIO over TCP does)
 *   discidle   a Discovery session, logged in to full feature phase,
 *              that then sends nothing; result "dropped after N s" (the
 *              target ended it) or "up after 20 s"
 *   loginflood a Normal login request without T (the target answers and
 *              waits for more), then one the target rejects (a key with
 *              no value), and 100 more login requests right behind it;
 *              result as for readimm, counting from the first response
 *   idle       24 connections that never send anything, kept open;
 *              result "idle A refused R" (connects that succeeded, failed)
 *   loginstall 200 connections, each sends one non-final Discovery login
 *              request (CSG 0, T 0) and nothing after the target's
 *              answer, kept open; result "stall A refused R"
 *   loginlate  R1 of the 6.12 porting map: 3 connections, one after the
 *              other (LIO logs in one at a time per portal group), each
 *              sends loginstall's request, then a second one 14.5, 15
 *              or 15.5 s after the target's answer, about when LIO's
 *              login timer (6.12) and the target's own 15 s deadline
 *              fire (a request well before them is any login's second
 *              step); kept open; result "late N answered A down D" (D: the
 *              target had dropped it 2 s after the late request)
 *   idleup     how many of the kept ones are still up, and how many got
 *              a login response: "up N answered M"
 *   idleclose  close them all: "closed N"
 *   tagflood   63 commands parked behind a CmdSN gap, then 150 immediate
 *              NOP-Out pings back to back, while this side receives
 *              slowly (8 receive buffers, 50 ms each): the target's
 *              NOP-In sends stall and hold their command tags, so the
 *              session runs out of tags; result "nopin N", and
 *              "dropped" if the target ended the connection
 *   nopttt     a NOP-Out that answers a ping the target never sent (a
 *              Target Transfer Tag it does not know); result as for
 *              readimm ("dropped": LIO over TCP ends the connection too)
 *   conform    SCSI cases whose answers must match LIO over TCP
 *              (tests/tools/iscsi_tcp_conform.py runs the same cases
 *              there): EDTL other than what the CDB transfers, INQUIRY
 *              and MODE SENSE allocation lengths, CmdSN beyond MaxCmdSN
 *              and below ExpCmdSN. READ data lands in a registered 16
 *              KiB buffer; each read case runs twice, over two fill
 *              patterns, to tell exactly how many bytes the target
 *              wrote. Result "conform N" (cases run); one line per case
 *              in parameter `report`:
 *              "NAME st=SS fl=[o-][u-] res=R data=N crc=C" or "NAME none"
 */
#include <linux/module.h>
#include <linux/inet.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/crc32.h>
#include <linux/scatterlist.h>
#include <rdmastor/rst.h>
#include <rdmastor/iser_wire.h>
/*
 * The codec is built into this module (the product module exports
 * nothing that only tests use): loading this one loads no product
 * module beside the engine.
 */
#include "../../common/iser_wire.c"

static char target[32] = "192.0.2.1";
module_param_string(target, target, sizeof(target), 0644);
MODULE_PARM_DESC(target, "target IPv4 address");

static ushort port = 3260;
module_param(port, ushort, 0644);
MODULE_PARM_DESC(port, "target port");

static char result[48] = "none";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "what the last run saw");

#define EVIL_MSG	ALIGN(ISER_HEADERS_LEN + 8192, 64)

static char report[1024];
module_param_string(report, report, sizeof(report), 0444);
MODULE_PARM_DESC(report, "conform mode: one line per case");

static char iqn[96] = "iqn.2026-11.org.rdmastor:t1";
module_param_string(iqn, iqn, sizeof(iqn), 0644);
MODULE_PARM_DESC(iqn, "target name for session modes");

static DECLARE_COMPLETION(evil_done);
static int evil_opcode = -1;
static bool evil_down;

/* Session modes: what the target sent after the login response. */
#define EVIL_SEEN_MAX	8
static DEFINE_SPINLOCK(evil_lock);
static DECLARE_WAIT_QUEUE_HEAD(evil_wq);
static bool evil_session;
static bool evil_slow_rx;		/* tagflood: receive slowly */
static u8 evil_login_rsp[ISER_BHS_LEN];
static bool evil_logged_in, evil_login_answered;
static u8 evil_seen[EVIL_SEEN_MAX];
static unsigned int evil_nr_seen, evil_nopins;
/* conform: the last SCSI Response or Reject, and the command window */
static u8 evil_rsp[ISER_BHS_LEN];
static bool evil_rsp_seen;
static u32 evil_max_cmdsn;
static u8 evil_tmf_rsp[ISER_BHS_LEN];
static bool evil_tmf_seen;
static u32 evil_last_scsi_itt;

/* idle and loginstall modes: connections kept open */
#define EVIL_KEPT	200
struct evil_kept {
	struct rst_conn *c;
	bool down;		/* the target dropped it */
	bool answered;		/* a login response came */
};
static struct evil_kept evil_kept[EVIL_KEPT];
static unsigned int evil_nr_kept;

static void evil_session_recv(const u8 *bhs)
{
	u8 op = bhs[0] & ISER_ISCSI_OP_MASK;

	spin_lock(&evil_lock);
	if (!evil_logged_in) {
		if (op == 0x23) {
			memcpy(evil_login_rsp, bhs, ISER_BHS_LEN);
			evil_login_answered = true;
		}
	} else {
		if (evil_nr_seen < EVIL_SEEN_MAX)
			evil_seen[evil_nr_seen++] = op;
		if (op == 0x20)
			evil_nopins++;
		if (op == 0x21 || op == 0x3f) {
			memcpy(evil_rsp, bhs, ISER_BHS_LEN);
			evil_rsp_seen = true;
		}
		if (op == 0x21)
			evil_last_scsi_itt = iser_get_be32(bhs + 16);
		if (op == 0x22) {
			memcpy(evil_tmf_rsp, bhs, ISER_BHS_LEN);
			evil_tmf_seen = true;
		}
		if (op == 0x20 || op == 0x21)
			evil_max_cmdsn = iser_get_be32(bhs + 32);
	}
	spin_unlock(&evil_lock);
	wake_up_all(&evil_wq);
}

static void evil_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool inv, u32 inv_rkey)
{
	struct evil_kept *k = rst_conn_priv(c);

	if (k) {
		if (len >= ISER_HEADERS_LEN &&
		    (((const u8 *)buf)[ISER_HDR_LEN] & ISER_ISCSI_OP_MASK) == 0x23)
			WRITE_ONCE(k->answered, true);
		return;
	}
	if (evil_session) {
		/* a slow receiver: the peer's sends wait for our buffers (RNR) */
		if (READ_ONCE(evil_slow_rx) && READ_ONCE(evil_logged_in))
			msleep(50);
		if (len >= ISER_HEADERS_LEN)
			evil_session_recv((const u8 *)buf + ISER_HDR_LEN);
		return;
	}
	if (evil_opcode < 0 && len >= ISER_HEADERS_LEN) {
		evil_opcode = ((const u8 *)buf)[ISER_HDR_LEN] & ISER_ISCSI_OP_MASK;
		complete(&evil_done);
	}
}

static void evil_disconnected(struct rst_conn *c, int reason)
{
	struct evil_kept *k = rst_conn_priv(c);

	if (k) {
		WRITE_ONCE(k->down, true);
		return;
	}
	WRITE_ONCE(evil_down, true);
	complete(&evil_done);
	wake_up_all(&evil_wq);
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

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static bool is_session_mode(const char *mode)
{
	return sysfs_streq(mode, "readimm") || sysfs_streq(mode, "tagflood") ||
	       sysfs_streq(mode, "loginflood") || sysfs_streq(mode, "badtext") ||
	       sysfs_streq(mode, "conform") || sysfs_streq(mode, "nopttt") ||
	       sysfs_streq(mode, "discidle");
}

/* Sequence numbers of the session being driven. */
struct evil_sess {
	struct rst_conn *c;
	u32 cmdsn, exp_statsn, itt;
	bool unsolicited;	/* log in with InitialR2T=No */
	bool discovery;		/* a Discovery session: no TargetName */
};

/* Post one PDU: iSER header (no stags), @bhs, @dlen bytes of data. */
static int evil_send(struct evil_sess *es, const u8 *bhs, const void *data, u32 dlen)
{
	struct rst_tx *tx = rst_tx_get(es->c, 5000);
	u8 *buf;

	if (IS_ERR(tx))
		return PTR_ERR(tx);
	buf = rst_tx_buf(tx);
	iser_hdr_encode(buf);
	memcpy(buf + ISER_HDR_LEN, bhs, ISER_BHS_LEN);
	if (dlen)
		memcpy(buf + ISER_HEADERS_LEN, data, dlen);
	return rst_tx_post(es->c, tx, ISER_HEADERS_LEN + dlen, NULL, false, 0);
}

/* Operational keys of a Normal session, after the names. */
static const char * const evil_op_keys[] = {
	"SessionType=Normal", "HeaderDigest=None", "DataDigest=None",
	"ImmediateData=Yes", "InitialR2T=Yes", "MaxConnections=1",
	"ErrorRecoveryLevel=0", "RDMAExtensions=Yes",
	"InitiatorRecvDataSegmentLength=8192", "TargetRecvDataSegmentLength=8192",
	"MaxBurstLength=262144", "FirstBurstLength=65536", "MaxOutstandingR2T=1",
	"DefaultTime2Wait=2", "DefaultTime2Retain=0", "DataPDUInOrder=Yes",
	"DataSequenceInOrder=Yes",
};

/*
 * Login keys: the names, then @nr of evil_op_keys (InitialR2T=No if
 * @unsolicited); each NUL-terminated.
 */
static int evil_login_keys(char *keys, int size, unsigned int nr, bool unsolicited,
			   bool discovery)
{
	unsigned int i;
	int len;

	len = scnprintf(keys, size, "InitiatorName=%s", "iqn.2026-11.org.rdmastor:evil") + 1;
	if (discovery)
		len += scnprintf(keys + len, size - len, "SessionType=Discovery") + 1;
	else
		len += scnprintf(keys + len, size - len, "TargetName=%s", iqn) + 1;
	for (i = discovery; i < nr && i < ARRAY_SIZE(evil_op_keys); i++)
		len += scnprintf(keys + len, size - len, "%s",
				 unsolicited && !strcmp(evil_op_keys[i], "InitialR2T=Yes") ?
				 "InitialR2T=No" : evil_op_keys[i]) + 1;
	return min(len, size);
}

/* A Normal-session login in one request (security skipped, no CHAP). */
static int evil_session_login(struct evil_sess *es)
{
	u8 bhs[ISER_BHS_LEN] = { 0x40 | ISER_ISCSI_OP_LOGIN, 0x80 | 0x04 | 0x03 };
	char *keys = kmalloc(1024, GFP_KERNEL);
	int len, err = 0, tries;

	if (!keys)
		return -ENOMEM;
	len = evil_login_keys(keys, 1024, ARRAY_SIZE(evil_op_keys), es->unsolicited,
			      es->discovery);
	bhs[8] = 0x80;		/* ISID: random format */
	bhs[13] = 0x02;
	put_be32(bhs + 16, es->itt++);
	put_be32(bhs + 24, es->cmdsn);
	/*
	 * The target may answer without T (keys it still wants settled):
	 * ask again with no keys, a few times at most.
	 */
	for (tries = 0; tries < 4; tries++) {
		put_be24(bhs + 5, len);
		spin_lock(&evil_lock);
		evil_login_answered = false;
		spin_unlock(&evil_lock);
		err = evil_send(es, bhs, keys, len);
		if (err)
			break;
		err = -ETIMEDOUT;
		if (!wait_event_timeout(evil_wq, READ_ONCE(evil_login_answered) ||
					READ_ONCE(evil_down), 10 * HZ))
			break;
		err = -ECONNRESET;
		if (!READ_ONCE(evil_login_answered))
			break;
		/* status class and detail */
		err = -EACCES;
		if (evil_login_rsp[36] || evil_login_rsp[37])
			break;
		err = 0;
		if ((evil_login_rsp[1] & 0x83) == 0x83)
			break;	/* T, and NSG full feature phase */
		len = 0;
		err = -EPROTO;
	}
	kfree(keys);
	if (err)
		return err;
	es->exp_statsn = iser_get_be32(evil_login_rsp + 24) + 1;
	es->cmdsn = iser_get_be32(evil_login_rsp + 28);
	evil_max_cmdsn = iser_get_be32(evil_login_rsp + 32);
	spin_lock(&evil_lock);
	evil_logged_in = true;
	spin_unlock(&evil_lock);
	return 0;
}

/* A SCSI command header: @flags (F, R, W), @edtl, @cmdsn, a 10-byte CDB. */
static void evil_scsi_bhs(struct evil_sess *es, u8 *bhs, u8 flags, u32 edtl,
			  u32 cmdsn, const u8 *cdb)
{
	memset(bhs, 0, ISER_BHS_LEN);
	bhs[0] = ISER_ISCSI_OP_SCSI_CMD;
	bhs[1] = flags | 0x01;		/* ATTR simple */
	put_be32(bhs + 16, es->itt++);
	put_be32(bhs + 20, edtl);
	put_be32(bhs + 24, cmdsn);
	put_be32(bhs + 28, es->exp_statsn);
	memcpy(bhs + 32, cdb, 10);
}

/* An immediate NOP-Out ping (the target answers with a NOP-In). */
static int evil_ping(struct evil_sess *es)
{
	u8 bhs[ISER_BHS_LEN] = { 0x40 | ISER_ISCSI_OP_NOOP_OUT, 0x80 };

	put_be32(bhs + 16, es->itt++);
	put_be32(bhs + 20, 0xffffffff);
	put_be32(bhs + 24, es->cmdsn);
	put_be32(bhs + 28, es->exp_statsn);
	return evil_send(es, bhs, NULL, 0);
}

/* readimm: READ(10) of 8 blocks with 4 KiB of immediate data, then a ping. */
static int evil_readimm(struct evil_sess *es)
{
	static const u8 cdb[10] = { 0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0 };
	u8 bhs[ISER_BHS_LEN];
	u8 *data = kzalloc(4096, GFP_KERNEL);
	int err;

	if (!data)
		return -ENOMEM;
	evil_scsi_bhs(es, bhs, 0x80 | 0x40, 4096, es->cmdsn++, cdb);
	put_be24(bhs + 5, 4096);
	err = evil_send(es, bhs, data, 4096);
	kfree(data);
	if (err)
		return err;
	msleep(1000);
	return evil_ping(es);
}

/* badtext: a SendTargets request with a value LIO does not know. */
static int evil_badtext(struct evil_sess *es)
{
	static const char text[] = "SendTargets=Alle\0";
	u8 bhs[ISER_BHS_LEN] = { ISER_ISCSI_OP_TEXT, 0x80 };

	put_be24(bhs + 5, sizeof(text) - 1);
	put_be32(bhs + 16, es->itt++);
	put_be32(bhs + 20, 0xffffffff);
	put_be32(bhs + 24, es->cmdsn++);
	put_be32(bhs + 28, es->exp_statsn);
	return evil_send(es, bhs, text, sizeof(text) - 1);
}

/* nopttt: an answer (ITT 0xffffffff) to a NOP-In that was never sent. */
static int evil_nopttt(struct evil_sess *es)
{
	u8 bhs[ISER_BHS_LEN] = { 0x40 | ISER_ISCSI_OP_NOOP_OUT, 0x80 };

	put_be32(bhs + 16, 0xffffffff);
	put_be32(bhs + 20, 0x7e57);		/* no such ping */
	put_be32(bhs + 24, es->cmdsn);
	put_be32(bhs + 28, es->exp_statsn);
	return evil_send(es, bhs, NULL, 0);
}

/* tagflood: 63 commands behind a CmdSN gap, then 150 pings at once. */
static int evil_tagflood(struct evil_sess *es)
{
	static const u8 tur[10] = { 0 };	/* TEST UNIT READY */
	u8 bhs[ISER_BHS_LEN];
	int i, err;

	for (i = 1; i <= 63; i++) {
		evil_scsi_bhs(es, bhs, 0x80, 0, es->cmdsn + i, tur);
		err = evil_send(es, bhs, NULL, 0);
		if (err)
			return err;
	}
	for (i = 0; i < 150; i++) {
		err = evil_ping(es);
		if (err)
			return err;
	}
	return 0;
}

/*
 * loginflood: a first request without T; once answered, a bad one and
 * 100 more behind it, not waiting for any answer.
 */
static int evil_loginflood(struct evil_sess *es)
{
	static const char bad[] = "NoValueHere\0";
	u8 bhs[ISER_BHS_LEN] = { 0x40 | ISER_ISCSI_OP_LOGIN, 0x04 | 0x03 };
	char *keys = kmalloc(256, GFP_KERNEL);
	int i, len, err;

	if (!keys)
		return -ENOMEM;
	len = evil_login_keys(keys, 256, 1, false, false);	/* the names, SessionType */
	bhs[8] = 0x80;
	bhs[13] = 0x03;
	put_be32(bhs + 16, es->itt);
	put_be32(bhs + 24, es->cmdsn);
	put_be24(bhs + 5, len);
	err = evil_send(es, bhs, keys, len);
	kfree(keys);
	if (err)
		return err;
	/* answered (T clear: the target waits for the next request) */
	if (!wait_event_timeout(evil_wq, READ_ONCE(evil_login_answered) ||
				READ_ONCE(evil_down), 10 * HZ) || READ_ONCE(evil_down))
		return -ECONNRESET;
	spin_lock(&evil_lock);
	evil_logged_in = true;	/* count what comes from here on */
	spin_unlock(&evil_lock);
	put_be24(bhs + 5, sizeof(bad) - 1);
	err = evil_send(es, bhs, bad, sizeof(bad) - 1);
	for (i = 0; i < 100 && !err; i++) {
		put_be24(bhs + 5, 0);
		err = evil_send(es, bhs, NULL, 0);
	}
	return READ_ONCE(evil_down) ? 0 : err;
}

/*
 * conform: the cases, the same as tests/tools/iscsi_tcp_conform.py's.
 * @sn: 0 in order; 1 beyond MaxCmdSN; -1 below ExpCmdSN (a number
 * already used): the target must ignore both; 2: the command, then at
 * once an ABORT TASK for it (evil_abort_race()); 3: LIO rejects it, its
 * CmdSN is used again; 4 and 5: a WRITE whose first half is immediate
 * data and second half an unsolicited Data-Out (InitialR2T=No), with
 * DataSN 0 (right) or 5 (wrong: the connection must end, at ERL 0).
 */
struct evil_case {
	const char *name;
	u8 cdb[16];
	u32 edtl;
	u8 flags;		/* R 0x40, W 0x20 */
	int sn;
};

#define EVIL_BUF	16384

static const struct evil_case evil_cases[] = {
	{ "read-edtl-over-cdb", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 4096, 0x40 },
	{ "read-edtl-under-cdb", { 0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0 }, 1024, 0x40 },
	{ "read-edtl-zero", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 0, 0x40 },
	{ "inquiry-255", { 0x12, 0, 0, 0, 255, 0 }, 255, 0x40 },
	{ "inquiry-alloc-8", { 0x12, 0, 0, 0, 8, 0 }, 96, 0x40 },
	{ "inquiry-edtl-8", { 0x12, 0, 0, 0, 96, 0 }, 8, 0x40 },
	{ "inquiry-vpd80-4", { 0x12, 1, 0x80, 0, 4, 0 }, 4, 0x40 },
	{ "mode-sense-255", { 0x1a, 0, 0x3f, 0, 255, 0 }, 255, 0x40 },
	{ "mode-sense-edtl-4", { 0x1a, 0, 0x3f, 0, 192, 0 }, 4, 0x40 },
	{ "mode-sense-alloc-2", { 0x1a, 0, 0x3f, 0, 2, 0 }, 64, 0x40 },
	{ "cmdsn-beyond-max", { 0 }, 0, 0, 1 },
	{ "cmdsn-below-exp", { 0 }, 0, 0, -1 },
	{ "abort-race", { 0x28, 0, 0, 0, 0, 0, 0, 0, 32, 0 }, 16384, 0x40, 2 },
	{ "tur-after", { 0 }, 0, 0 },
	{ "read-no-r-bit", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 512, 0, 3 },
	{ "write-unsolicited", { 0x2a, 0, 0, 0, 0, 100, 0, 0, 32, 0 }, 16384, 0x20, 4 },
	{ "read-back", { 0x28, 0, 0, 0, 0, 100, 0, 0, 32, 0 }, 16384, 0x40 },
	/* last: it ends the connection */
	{ "write-bad-datasn", { 0x2a, 0, 0, 0, 0, 200, 0, 0, 32, 0 }, 16384, 0x20, 5 },
};

/*
 * Wait up to @wait_ms for the SCSI Response or Reject to the command
 * just sent: 1 if it came (in evil_rsp), 0 if not, -ECONNRESET if the
 * target ended the connection.
 */
static int evil_wait_rsp(struct evil_sess *es, unsigned int wait_ms)
{
	if (!wait_event_timeout(evil_wq, READ_ONCE(evil_rsp_seen) || READ_ONCE(evil_down),
				msecs_to_jiffies(wait_ms)))
		return 0;
	if (!READ_ONCE(evil_rsp_seen))
		return -ECONNRESET;
	es->exp_statsn = iser_get_be32(evil_rsp + 24) + 1;
	return 1;
}

/* An MR over the READ buffer, with a fresh key, to advertise. */
static struct rst_mr *evil_map_read_buf(struct evil_sess *es, u8 *buf,
					struct scatterlist *sg, u64 *addr, u32 *rkey)
{
	struct rst_mr *m = rst_mr_get(es->c);
	u32 len;
	int err;

	if (IS_ERR(m))
		return m;
	sg_init_one(sg, buf, EVIL_BUF);
	err = rst_mr_map(m, sg, 1, DMA_FROM_DEVICE, addr, &len, rkey);
	if (err) {
		rst_mr_put(m);
		return ERR_PTR(err);
	}
	return m;
}

static u8 evil_pattern(u32 i)
{
	return i * 7 + 3;
}

/*
 * The WRITE of cases 4 and 5 (in @tx, its header in @b): 8 KiB of
 * immediate data, then an unsolicited Data-Out of the other 8 KiB;
 * answered as evil_case_send() says, or -ECONNRESET if the target ended
 * the connection.
 */
static int evil_case_write(struct evil_sess *es, const struct evil_case *t,
			   struct rst_tx *tx, u8 *b)
{
	u32 half = t->edtl / 2, i;
	u8 dout[ISER_BHS_LEN] = { ISER_ISCSI_OP_DATA_OUT, 0x80 };
	u8 *data = kmalloc(half, GFP_KERNEL);
	int err;

	if (!data) {
		rst_tx_put(es->c, tx);
		return -ENOMEM;
	}
	b[ISER_HDR_LEN + 1] &= ~0x80;	/* F clear: unsolicited data follows */
	put_be24(b + ISER_HDR_LEN + 5, half);
	for (i = 0; i < half; i++)
		b[ISER_HEADERS_LEN + i] = evil_pattern(i);
	spin_lock(&evil_lock);
	evil_rsp_seen = false;
	spin_unlock(&evil_lock);
	err = rst_tx_post(es->c, tx, ISER_HEADERS_LEN + half, NULL, false, 0);
	put_be24(dout + 5, half);
	memcpy(dout + 16, b + ISER_HDR_LEN + 16, 4);	/* the command's ITT */
	put_be32(dout + 20, 0xffffffff);
	put_be32(dout + 28, es->exp_statsn);
	put_be32(dout + 36, t->sn == 5 ? 5 : 0);	/* DataSN */
	put_be32(dout + 40, half);			/* Buffer Offset */
	for (i = 0; i < half; i++)
		data[i] = evil_pattern(half + i);
	if (!err)
		err = evil_send(es, dout, data, half);
	kfree(data);
	if (err)
		return -ECONNRESET;
	return evil_wait_rsp(es, 5000);
}

/*
 * Send one case's command; with @buf, advertise it (registered in @m)
 * as the READ buffer. Wait up to @wait_ms for its answer; 1 if one
 * came (in evil_rsp), 0 if none, or an errno.
 */
static int evil_case_send(struct evil_sess *es, const struct evil_case *t,
			  struct rst_mr *m, u64 addr, u32 rkey, unsigned int wait_ms)
{
	struct rst_tx *tx = rst_tx_get(es->c, 5000);
	u32 cmdsn = es->cmdsn;
	u8 *b;

	if (IS_ERR(tx))
		return PTR_ERR(tx);
	if (t->sn == 1)
		cmdsn = READ_ONCE(evil_max_cmdsn) + 5;
	else if (t->sn < 0)
		cmdsn = es->cmdsn - 1;
	b = rst_tx_buf(tx);
	iser_hdr_encode(b);
	if (m) {
		b[0] |= ISER_FLAG_RSV;
		put_be32(b + 16, rkey);
		put_be32(b + 20, upper_32_bits(addr));
		put_be32(b + 24, lower_32_bits(addr));
	}
	evil_scsi_bhs(es, b + ISER_HDR_LEN, 0x80 | t->flags, t->edtl, cmdsn, t->cdb);
	if (!t->sn || t->sn == 2 || t->sn >= 4)
		es->cmdsn++;
	if (t->sn >= 4)
		return evil_case_write(es, t, tx, b);
	spin_lock(&evil_lock);
	evil_rsp_seen = false;
	spin_unlock(&evil_lock);
	if (rst_tx_post(es->c, tx, ISER_HEADERS_LEN, m, false, 0))
		return -ENOTCONN;
	return evil_wait_rsp(es, wait_ms);
}

/* One READ-buffer run of a case over a buffer filled with @fill. */
static int evil_case_read(struct evil_sess *es, const struct evil_case *t,
			  u8 *buf, u8 fill, u32 *written)
{
	struct scatterlist sg;
	struct rst_mr *m;
	u32 rkey, i;
	u64 addr;
	int got, err;

	memset(buf, fill, EVIL_BUF);
	m = evil_map_read_buf(es, buf, &sg, &addr, &rkey);
	if (IS_ERR(m))
		return PTR_ERR(m);
	got = evil_case_send(es, t, m, addr, rkey, 5000);
	err = rst_mr_local_invalidate(m);
	rst_mr_put(m);		/* unmaps: the CPU sees what was written */
	if (got < 0 || err)
		return got < 0 ? got : err;
	for (i = EVIL_BUF; i && buf[i - 1] == fill; i--)
		;
	*written = max(*written, i);
	return got;
}

/*
 * A READ and, right behind it, an immediate ABORT TASK for it. Whichever
 * wins, both must be answered: the TMF always; the READ's status unless
 * the abort took it first (then TMF response 0, Function complete).
 * Result "tmf=R cmd=0|1" (whether the READ's status came).
 */
static int evil_abort_race(struct evil_sess *es, const struct evil_case *t,
			   u8 *buf, char *line, int size)
{
	u8 tmf[ISER_BHS_LEN] = { 0x40 | ISER_ISCSI_OP_TMF, 0x80 | 0x01 };
	u32 itt = es->itt, cmdsn = es->cmdsn;
	struct scatterlist sg;
	struct rst_mr *m;
	bool cmd_done;
	u32 rkey;
	u64 addr;
	int err;

	m = evil_map_read_buf(es, buf, &sg, &addr, &rkey);
	if (IS_ERR(m))
		return PTR_ERR(m);
	spin_lock(&evil_lock);
	evil_tmf_seen = false;
	evil_last_scsi_itt = 0;
	spin_unlock(&evil_lock);
	/* no wait: the TMF goes right behind the command */
	err = evil_case_send(es, t, m, addr, rkey, 0);
	if (err >= 0) {
		put_be32(tmf + 16, es->itt++);
		put_be32(tmf + 20, itt);		/* Referenced Task Tag */
		put_be32(tmf + 24, es->cmdsn);		/* immediate: not advanced */
		put_be32(tmf + 28, es->exp_statsn);
		put_be32(tmf + 32, cmdsn);		/* RefCmdSN */
		err = evil_send(es, tmf, NULL, 0);
	}
	if (!err && !wait_event_timeout(evil_wq, READ_ONCE(evil_tmf_seen) ||
					READ_ONCE(evil_down), 10 * HZ))
		err = -ETIMEDOUT;
	if (!err && !READ_ONCE(evil_tmf_seen))
		err = -ECONNRESET;
	/* the READ's status, if it is to come (at most 2 s more) */
	wait_event_timeout(evil_wq, READ_ONCE(evil_last_scsi_itt) == itt ||
			   READ_ONCE(evil_down), 2 * HZ);
	rst_mr_local_invalidate(m);
	rst_mr_put(m);
	if (err)
		return err;
	cmd_done = READ_ONCE(evil_last_scsi_itt) == itt;
	if (cmd_done)
		es->exp_statsn = max(es->exp_statsn, iser_get_be32(evil_rsp + 24) + 1);
	es->exp_statsn = max(es->exp_statsn, iser_get_be32(evil_tmf_rsp + 24) + 1);
	scnprintf(line, size, "%s tmf=%u cmd=%u\n", t->name, evil_tmf_rsp[2], cmd_done);
	return 0;
}

static int evil_conform(struct evil_sess *es)
{
	u8 *buf = kmalloc(EVIL_BUF, GFP_KERNEL);
	unsigned int i, off = 0;
	int got = 0, err = 0;

	if (!buf)
		return -ENOMEM;
	report[0] = 0;
	for (i = 0; i < ARRAY_SIZE(evil_cases) && !err; i++) {
		const struct evil_case *t = &evil_cases[i];
		u32 written = 0, crc = 0;
		u8 fl;

		if (t->sn == 2) {
			err = evil_abort_race(es, t, buf, report + off,
					      sizeof(report) - off);
			off += strlen(report + off);
			continue;
		}
		if (t->flags & 0x40) {
			got = evil_case_read(es, t, buf, 0x5a, &written);
			if (got == 1)
				got = evil_case_read(es, t, buf, 0xa5, &written);
			crc = crc32_le(~0, buf, written) ^ ~0;
		} else {
			got = evil_case_send(es, t, NULL, 0, 0, t->sn ? 1000 : 5000);
		}
		if (got == -ECONNRESET && READ_ONCE(evil_down)) {
			off += scnprintf(report + off, sizeof(report) - off, "%s dropped\n",
					 t->name);
			i++;
			break;
		}
		if (got < 0) {
			err = got;
			break;
		}
		if (!got) {
			off += scnprintf(report + off, sizeof(report) - off, "%s none\n",
					 t->name);
			continue;
		}
		fl = evil_rsp[1];
		if ((evil_rsp[0] & 0x3f) == 0x3f) {
			off += scnprintf(report + off, sizeof(report) - off,
					 "%s reject reason=%02x\n", t->name, evil_rsp[2]);
			continue;
		}
		off += scnprintf(report + off, sizeof(report) - off,
				 "%s st=%02x fl=%c%c res=%u data=%u crc=%08x\n",
				 t->name, evil_rsp[3], fl & 0x04 ? 'o' : '-',
				 fl & 0x02 ? 'u' : '-', iser_get_be32(evil_rsp + 44),
				 written, crc);
	}
	kfree(buf);
	snprintf(result, sizeof(result), "conform %u", i);
	return err;
}

/* Log in, run the mode, and say what came back within 5 s of the last. */
static void evil_session_run(struct rst_conn *c, const char *mode)
{
	struct evil_sess es = { .c = c, .cmdsn = 1, .itt = 1,
				.unsolicited = sysfs_streq(mode, "conform"),
				.discovery = sysfs_streq(mode, "discidle") };
	unsigned int i, n;
	int err, off = 0;

	if (sysfs_streq(mode, "loginflood")) {
		err = evil_loginflood(&es);
		if (err)
			snprintf(result, sizeof(result), "error %d", err);
		goto report;
	}
	err = evil_session_login(&es);
	if (err) {
		snprintf(result, sizeof(result), "login failed %d %02x%02x %02x", err,
			 evil_login_rsp[36], evil_login_rsp[37], evil_login_rsp[1]);
		return;
	}
	if (es.discovery) {
		unsigned long t0 = jiffies;

		wait_event_timeout(evil_wq, READ_ONCE(evil_down), 20 * HZ);
		if (READ_ONCE(evil_down))
			snprintf(result, sizeof(result), "dropped after %u s",
				 jiffies_to_msecs(jiffies - t0) / 1000);
		else
			snprintf(result, sizeof(result), "up after 20 s");
		return;
	}
	if (sysfs_streq(mode, "conform")) {
		err = evil_conform(&es);
		if (err)
			snprintf(result, sizeof(result), "conform error %d", err);
		return;
	}
	if (sysfs_streq(mode, "readimm"))
		err = evil_readimm(&es);
	else if (sysfs_streq(mode, "badtext"))
		err = evil_badtext(&es);
	else if (sysfs_streq(mode, "nopttt"))
		err = evil_nopttt(&es);
	else
		err = evil_tagflood(&es);
report:
	wait_event_timeout(evil_wq, READ_ONCE(evil_down),
			   (evil_slow_rx ? 15 : 5) * HZ);
	spin_lock(&evil_lock);
	n = evil_nr_seen;
	if (sysfs_streq(mode, "tagflood")) {
		off = scnprintf(result, sizeof(result), "nopin %u", evil_nopins);
	} else {
		for (i = 0; i < n; i++)
			off += scnprintf(result + off, sizeof(result) - off, "%s0x%02x",
					 i ? " " : "", evil_seen[i]);
	}
	spin_unlock(&evil_lock);
	if (READ_ONCE(evil_down))
		scnprintf(result + off, sizeof(result) - off, "%sdropped", off ? " " : "");
	else if (!off)
		snprintf(result, sizeof(result), "silent");
}

/* A Discovery login request that wants another step (T 0), in @buf. */
static u32 evil_stall_login(u8 *buf)
{
	static const char keys[] = "InitiatorName=iqn.2026-11.org.rdmastor:evil\0"
				   "SessionType=Discovery\0AuthMethod=None\0";
	u8 *bhs = buf + ISER_HDR_LEN;

	iser_hdr_encode(buf);
	memset(bhs, 0, ISER_BHS_LEN);
	bhs[0] = 0x40 | ISER_ISCSI_OP_LOGIN;	/* immediate */
	bhs[1] = 0x01;				/* no T; CSG security, NSG operational */
	put_be24(bhs + 5, sizeof(keys) - 1);
	bhs[8] = 0x80;				/* ISID: random format */
	bhs[13] = 0x03;
	bhs[19] = 0x01;				/* ITT 1 */
	memcpy(buf + ISER_HEADERS_LEN, keys, sizeof(keys) - 1);
	return ISER_HEADERS_LEN + sizeof(keys) - 1;
}

/* Connect one kept connection; with @stall, send it a stalling login. */
static int evil_keep_one(struct rst_conn_params *p, struct sockaddr_in *sin,
			 bool stall)
{
	struct evil_kept *k = &evil_kept[evil_nr_kept];
	struct rst_conn *c;
	struct rst_tx *tx;

	memset(k, 0, sizeof(*k));
	p->priv = k;
	c = rst_connect(&init_net, (struct sockaddr *)sin, p, 5000);
	if (IS_ERR(c))
		return PTR_ERR(c);
	k->c = c;
	evil_nr_kept++;
	if (!stall)
		return 0;
	/* a send that fails means the connection went down: counted so */
	tx = rst_tx_get(c, 1000);
	if (!IS_ERR(tx))
		rst_tx_post(c, tx, evil_stall_login(rst_tx_buf(tx)), NULL, false, 0);
	return 0;
}

static const unsigned int evil_late_ms[] = { 14500, 15000, 15500 };

/* loginlate: see the modes above */
static int evil_late_run(struct rst_conn_params *p, struct sockaddr_in *sin)
{
	unsigned int i, answered = 0, down = 0;
	struct evil_kept *k;
	unsigned long end;
	struct rst_tx *tx;

	for (i = 0; i < ARRAY_SIZE(evil_late_ms); i++) {
		if (evil_keep_one(p, sin, true))
			continue;
		k = &evil_kept[evil_nr_kept - 1];
		end = jiffies + msecs_to_jiffies(30000);
		while (!READ_ONCE(k->answered) && !READ_ONCE(k->down) &&
		       time_before(jiffies, end))
			msleep(50);
		if (!READ_ONCE(k->answered))
			continue;
		answered++;
		msleep(evil_late_ms[i]);
		tx = rst_tx_get(k->c, 1000);
		if (!IS_ERR(tx))
			rst_tx_post(k->c, tx, evil_stall_login(rst_tx_buf(tx)), NULL,
				    false, 0);
		msleep(2000);
		down += READ_ONCE(k->down);
	}
	snprintf(result, sizeof(result), "late %u answered %u down %u",
		 evil_nr_kept, answered, down);
	return 0;
}

static int evil_kept_run(const char *mode, struct rst_conn_params *p,
			 struct sockaddr_in *sin)
{
	bool stall = sysfs_streq(mode, "loginstall");
	unsigned int i, n = 0, answered = 0, refused = 0;

	if (sysfs_streq(mode, "idleup")) {
		for (i = 0; i < evil_nr_kept; i++) {
			n += !READ_ONCE(evil_kept[i].down);
			answered += READ_ONCE(evil_kept[i].answered);
		}
		snprintf(result, sizeof(result), "up %u answered %u", n, answered);
		return 0;
	}
	if (sysfs_streq(mode, "idleclose")) {
		for (i = 0; i < evil_nr_kept; i++)
			rst_close(evil_kept[i].c);
		snprintf(result, sizeof(result), "closed %u", evil_nr_kept);
		evil_nr_kept = 0;
		return 0;
	}
	if (evil_nr_kept)
		return -EBUSY;
	/* login responses are small: so are our buffers */
	if (stall || sysfs_streq(mode, "loginlate"))
		p->msg_size = 2048;
	if (sysfs_streq(mode, "loginlate"))
		return evil_late_run(p, sin);
	for (i = 0; i < (stall ? EVIL_KEPT : 24); i++)
		if (evil_keep_one(p, sin, stall))
			refused++;
	snprintf(result, sizeof(result), "%s %u refused %u", stall ? "stall" : "idle",
		 evil_nr_kept, refused);
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
	if (sysfs_streq(mode, "conform")) {
		/* a READ buffer to register; we invalidate it ourselves */
		pdata[0] |= ISER_CM_SEND_W_INV_NOT_SUP;
		p.max_io_pages = EVIL_BUF / PAGE_SIZE;
	}
	if (!strncmp(mode, "idle", 4) || sysfs_streq(mode, "loginstall") ||
	    sysfs_streq(mode, "loginlate"))
		return evil_kept_run(mode, &p, &sin);
	reinit_completion(&evil_done);
	evil_opcode = -1;
	evil_down = false;
	evil_session = is_session_mode(mode);
	evil_logged_in = false;
	evil_login_answered = false;
	evil_nr_seen = 0;
	evil_nopins = 0;
	evil_slow_rx = sysfs_streq(mode, "tagflood");
	if (evil_session) {
		/* room for a flood of pings; few, slow receives for tagflood */
		p.send_depth = 256;
		p.recv_depth = evil_slow_rx ? 8 : 256;
	}
	c = rst_connect(&init_net, (struct sockaddr *)&sin, &p, 5000);
	if (IS_ERR(c)) {
		snprintf(result, sizeof(result), "refused");
		return 0;
	}
	if (evil_session) {
		evil_session_run(c, mode);
		rst_close(c);
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
	evil_kept_run("idleclose", NULL, NULL);
}

module_init(evil_init);
module_exit(evil_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: an iSER initiator that sends malformed messages");
