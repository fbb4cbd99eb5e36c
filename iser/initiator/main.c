// SPDX-License-Identifier: GPL-2.0
/*
 * rdmastor_iser: the iscsi_transport open-iscsi knows as "iser", its SCSI
 * host template (proc_name "iscsi_iser", which iscsid maps back to the
 * transport), sessions and connections. libiscsi does the iSCSI; the
 * RDMA side is the engine's (ep.c, task.c, rx.c).
 */
#include <linux/module.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include "ini.h"
#include "trace.h"

/* Serialises binding, endpoint disconnect and connection stop. */
DEFINE_MUTEX(ini_mutex);

static struct scsi_transport_template *ini_scsi_transport;
static struct iscsi_transport ini_transport;

static unsigned int ini_max_lun = 512;
module_param_named(max_lun, ini_max_lun, uint, 0444);
MODULE_PARM_DESC(max_lun, "LUNs per session (default 512)");

static struct scsi_host_template ini_sht = {
	.module = THIS_MODULE,
	.name = "rdmastor iSER initiator",
	.proc_name = "iscsi_iser",
	.queuecommand = iscsi_queuecommand,
	.change_queue_depth = scsi_change_queue_depth,
	.can_queue = INI_CMDS_MAX,
	/* an FRWR maps whole pages with no gaps between them */
	.sg_tablesize = INI_IO_PAGES - 1,
	.max_sectors = (INI_IO_PAGES - 1) << (PAGE_SHIFT - 9),
	.virt_boundary_mask = PAGE_SIZE - 1,
	.cmd_per_lun = ISCSI_DEF_CMD_PER_LUN,
	.eh_timed_out = iscsi_eh_cmd_timed_out,
	.eh_abort_handler = iscsi_eh_abort,
	.eh_device_reset_handler = iscsi_eh_device_reset,
	.eh_target_reset_handler = iscsi_eh_recover_target,
	.target_alloc = iscsi_target_alloc,
	.this_id = -1,
	.track_queue_depth = 1,
	.cmd_size = sizeof(struct iscsi_cmd),
};

static struct iscsi_cls_session *ini_session_create(struct iscsi_endpoint *ep,
						     u16 cmds_max, u16 qdepth,
						     u32 initial_cmdsn)
{
	struct iscsi_cls_session *cls_session;
	struct Scsi_Host *shost;

	shost = iscsi_host_alloc(&ini_sht, 0, false);
	if (!shost)
		return NULL;
	shost->transportt = ini_scsi_transport;
	shost->max_lun = ini_max_lun;
	shost->max_id = 0;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;
	shost->can_queue = min_t(u16, cmds_max ?: INI_CMDS_MAX, INI_CMDS_MAX);
	if (qdepth)
		shost->cmd_per_lun = min_t(u16, qdepth, shost->can_queue);
	if (iscsi_host_add(shost, NULL))
		goto free_host;
	cls_session = iscsi_session_setup(&ini_transport, shost, shost->can_queue,
					  0, sizeof(struct ini_task),
					  initial_cmdsn, 0);
	if (!cls_session)
		goto remove_host;
	return cls_session;

remove_host:
	iscsi_host_remove(shost, false);
free_host:
	iscsi_host_free(shost);
	return NULL;
}

static void ini_session_destroy(struct iscsi_cls_session *cls_session)
{
	struct Scsi_Host *shost = iscsi_session_to_shost(cls_session);

	iscsi_session_teardown(cls_session);
	iscsi_host_remove(shost, false);
	iscsi_host_free(shost);
}

static struct iscsi_cls_conn *ini_conn_create(struct iscsi_cls_session *cls_session,
					      u32 conn_idx)
{
	struct iscsi_cls_conn *cls_conn;
	struct iscsi_conn *iconn;
	struct ini_conn *ic;

	cls_conn = iscsi_conn_setup(cls_session, sizeof(*ic), conn_idx);
	if (!cls_conn)
		return NULL;
	iconn = cls_conn->dd_data;
	/* what our receive buffers hold; iscsid negotiates within it */
	iconn->max_recv_dlength = INI_MAX_DSL;
	ic = iconn->dd_data;
	ic->iconn = iconn;
	INIT_LIST_HEAD(&ic->all);
	INIT_WORK(&ic->grow_work, ini_grow_work);
	return cls_conn;
}

/*
 * Take the RDMA connection away from @ic and free it (H6).
 * Under ini_mutex. libiscsi no longer transmits on this connection.
 */
static void ini_conn_release(struct ini_conn *ic)
{
	struct iscsi_session *session = ic->iconn->session;
	struct rst_conn *rc;

	lockdep_assert_held(&ini_mutex);
	ini_stats_del(ic);
	spin_lock_bh(&session->frwd_lock);
	rc = ic->rc;
	WRITE_ONCE(ic->rc, NULL);
	spin_unlock_bh(&session->frwd_lock);
	cancel_work_sync(&ic->grow_work);
	if (ic->ep) {
		ic->ep->conn = NULL;
		ic->ep = NULL;
	}
	if (rc) {
		trace_ini_conn_release(rc, 0);
		ini_held_release(ic);	/* its slot is rc's */
		rst_close(rc);
	}
}

static int ini_conn_bind(struct iscsi_cls_session *cls_session,
			 struct iscsi_cls_conn *cls_conn, u64 transport_eph,
			 int is_leading)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;
	struct ini_conn *ic = iconn->dd_data;
	struct iscsi_endpoint *iep;
	struct ini_ep *ep;
	int err;

	iep = iscsi_lookup_endpoint(transport_eph);
	if (!iep)
		return -EINVAL;
	ep = iep->dd_data;
	mutex_lock(&ini_mutex);
	err = -ENOTCONN;
	if (!ep->rc || ep->conn || !rst_conn_up(ep->rc))
		goto out;
	/* a recovery binds a new endpoint: the old connection goes first */
	ini_conn_release(ic);
	err = iscsi_conn_bind(cls_session, cls_conn, is_leading);
	if (err)
		goto out;
	ic->stopping = false;
	ic->logged_out = false;
	ic->statsn_seen = false;
	ic->ep = ep;
	ep->conn = ic;
	rst_conn_set_priv(ep->rc, ic);
	spin_lock_bh(&iconn->session->frwd_lock);
	WRITE_ONCE(ic->rc, ep->rc);
	spin_unlock_bh(&iconn->session->frwd_lock);
	trace_ini_conn_bind(ep->rc, 0);
	ep->rc = NULL;
	ini_stats_add(ic);
out:
	mutex_unlock(&ini_mutex);
	iscsi_put_endpoint(iep);
	return err;
}

static void ini_conn_stop(struct iscsi_cls_conn *cls_conn, int flag)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;
	struct ini_conn *ic = iconn->dd_data;

	/*
	 * Drain first, so that no command libiscsi fails below can still
	 * be reached by the target (H1): its QP is in error.
	 */
	mutex_lock(&ini_mutex);
	WRITE_ONCE(ic->stopping, true);
	if (ic->rc)
		rst_shutdown(ic->rc);
	mutex_unlock(&ini_mutex);
	iscsi_conn_stop(cls_conn, flag);
	mutex_lock(&ini_mutex);
	ini_conn_release(ic);
	mutex_unlock(&ini_mutex);
}

static void ini_conn_destroy(struct iscsi_cls_conn *cls_conn)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;

	mutex_lock(&ini_mutex);
	ini_conn_release(iconn->dd_data);
	mutex_unlock(&ini_mutex);
	iscsi_conn_teardown(cls_conn);
}

/* Set @param to what @buf says; 0 or more than @max becomes @max. */
static int ini_set_clamped(struct iscsi_cls_conn *cls_conn, enum iscsi_param param,
			   char *buf, int buflen, unsigned int max)
{
	char val[16];
	unsigned int v;
	int len;

	if (kstrtouint(buf, 10, &v))
		return -EINVAL;
	if (v && v <= max)
		return iscsi_set_param(cls_conn, param, buf, buflen);
	len = snprintf(val, sizeof(val), "%u", max);
	return iscsi_set_param(cls_conn, param, val, len + 1);
}

static int ini_set_param(struct iscsi_cls_conn *cls_conn, enum iscsi_param param,
			 char *buf, int buflen)
{
	unsigned int v;

	switch (param) {
	case ISCSI_PARAM_HDRDGST_EN:
	case ISCSI_PARAM_DATADGST_EN:
		/* RFC 7145: no digests over iSER */
		if (kstrtouint(buf, 10, &v) || v)
			return -EINVAL;
		break;
	case ISCSI_PARAM_MAX_XMIT_DLENGTH:
	case ISCSI_PARAM_MAX_RECV_DLENGTH:
		/* our Send and receive buffers hold INI_MAX_DSL bytes of data */
		return ini_set_clamped(cls_conn, param, buf, buflen, INI_MAX_DSL);
	case ISCSI_PARAM_FIRST_BURST:
		return ini_set_clamped(cls_conn, param, buf, buflen, INI_MAX_UNSOL);
	default:
		break;
	}
	return iscsi_set_param(cls_conn, param, buf, buflen);
}

static int ini_get_conn_param(struct iscsi_cls_conn *cls_conn,
			      enum iscsi_param param, char *buf)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;
	struct ini_conn *ic = iconn->dd_data;
	struct sockaddr_storage local, peer;
	int ret = -ENOTCONN;

	switch (param) {
	case ISCSI_PARAM_CONN_ADDRESS:
	case ISCSI_PARAM_CONN_PORT:
	case ISCSI_PARAM_LOCAL_PORT:
		mutex_lock(&ini_mutex);
		if (ic->rc) {
			rst_conn_addrs(ic->rc, &local, &peer);
			ret = iscsi_conn_get_addr_param(param == ISCSI_PARAM_LOCAL_PORT ?
							&local : &peer, param, buf);
		}
		mutex_unlock(&ini_mutex);
		return ret;
	default:
		return iscsi_conn_get_param(cls_conn, param, buf);
	}
}

static void ini_get_stats(struct iscsi_cls_conn *cls_conn, struct iscsi_stats *stats)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;

	stats->txdata_octets = iconn->txdata_octets;
	stats->rxdata_octets = iconn->rxdata_octets;
	stats->scsicmd_pdus = iconn->scsicmd_pdus_cnt;
	stats->dataout_pdus = iconn->dataout_pdus_cnt;
	stats->scsirsp_pdus = iconn->scsirsp_pdus_cnt;
	stats->datain_pdus = iconn->datain_pdus_cnt;
	stats->r2t_pdus = iconn->r2t_pdus_cnt;
	stats->tmfcmd_pdus = iconn->tmfcmd_pdus_cnt;
	stats->tmfrsp_pdus = iconn->tmfrsp_pdus_cnt;
	stats->custom_length = 0;
}

static umode_t ini_attr_is_visible(int param_type, int param)
{
	switch (param_type) {
	case ISCSI_HOST_PARAM:
		switch (param) {
		case ISCSI_HOST_PARAM_NETDEV_NAME:
		case ISCSI_HOST_PARAM_HWADDRESS:
		case ISCSI_HOST_PARAM_INITIATOR_NAME:
			return 0444;
		default:
			return 0;
		}
	case ISCSI_PARAM:
		switch (param) {
		case ISCSI_PARAM_MAX_RECV_DLENGTH:
		case ISCSI_PARAM_MAX_XMIT_DLENGTH:
		case ISCSI_PARAM_HDRDGST_EN:
		case ISCSI_PARAM_DATADGST_EN:
		case ISCSI_PARAM_CONN_ADDRESS:
		case ISCSI_PARAM_CONN_PORT:
		case ISCSI_PARAM_LOCAL_PORT:
		case ISCSI_PARAM_EXP_STATSN:
		case ISCSI_PARAM_PERSISTENT_ADDRESS:
		case ISCSI_PARAM_PERSISTENT_PORT:
		case ISCSI_PARAM_PING_TMO:
		case ISCSI_PARAM_RECV_TMO:
		case ISCSI_PARAM_INITIAL_R2T_EN:
		case ISCSI_PARAM_MAX_R2T:
		case ISCSI_PARAM_IMM_DATA_EN:
		case ISCSI_PARAM_FIRST_BURST:
		case ISCSI_PARAM_MAX_BURST:
		case ISCSI_PARAM_PDU_INORDER_EN:
		case ISCSI_PARAM_DATASEQ_INORDER_EN:
		case ISCSI_PARAM_ERL:
		case ISCSI_PARAM_TARGET_NAME:
		case ISCSI_PARAM_TPGT:
		case ISCSI_PARAM_USERNAME:
		case ISCSI_PARAM_PASSWORD:
		case ISCSI_PARAM_USERNAME_IN:
		case ISCSI_PARAM_PASSWORD_IN:
		case ISCSI_PARAM_FAST_ABORT:
		case ISCSI_PARAM_ABORT_TMO:
		case ISCSI_PARAM_LU_RESET_TMO:
		case ISCSI_PARAM_TGT_RESET_TMO:
		case ISCSI_PARAM_IFACE_NAME:
		case ISCSI_PARAM_INITIATOR_NAME:
		case ISCSI_PARAM_DISCOVERY_SESS:
			return 0444;
		default:
			return 0;
		}
	}
	return 0;
}

static struct iscsi_transport ini_transport = {
	.owner = THIS_MODULE,
	.name = "iser",
	.caps = CAP_RECOVERY_L0 | CAP_MULTI_R2T | CAP_TEXT_NEGO,
	.create_session = ini_session_create,
	.destroy_session = ini_session_destroy,
	.create_conn = ini_conn_create,
	.bind_conn = ini_conn_bind,
	.unbind_conn = iscsi_conn_unbind,
	.destroy_conn = ini_conn_destroy,
	.attr_is_visible = ini_attr_is_visible,
	.set_param = ini_set_param,
	.get_conn_param = ini_get_conn_param,
	.get_ep_param = ini_get_ep_param,
	.get_session_param = iscsi_session_get_param,
	.start_conn = iscsi_conn_start,
	.stop_conn = ini_conn_stop,
	.get_host_param = iscsi_host_get_param,
	.set_host_param = iscsi_host_set_param,
	.send_pdu = ini_send_pdu,
	.get_stats = ini_get_stats,
	.init_task = ini_init_task,
	.xmit_task = ini_xmit_task,
	.cleanup_task = ini_cleanup_task,
	.alloc_pdu = ini_alloc_pdu,
	.session_recovery_timedout = iscsi_session_recovery_timedout,
	.ep_connect = ini_ep_connect,
	.ep_poll = ini_ep_poll,
	.ep_disconnect = ini_ep_disconnect,
};

static int __init ini_init(void)
{
	ini_scsi_transport = iscsi_register_transport(&ini_transport);
	if (!ini_scsi_transport) {
		pr_err("cannot register the iSCSI transport \"iser\" (is ib_iser loaded?)\n");
		return -EEXIST;
	}
	ini_stats_init();
	return 0;
}

static void __exit ini_exit(void)
{
	iscsi_unregister_transport(&ini_transport);
	ini_stats_exit();
}

module_init(ini_init);
module_exit(ini_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMASTOR_VERSION);
MODULE_DESCRIPTION("rdmastor iSER initiator: open-iscsi's \"iser\" transport on the rdmastor engine");
