/* SPDX-License-Identifier: GPL-2.0 */
/* The rtp test module's two halves (rtp_client.c, rtp_server.c). */
#ifndef RDMASTOR_RTP_H
#define RDMASTOR_RTP_H

struct dentry;

int rtp_client_init(struct dentry *dir);
int rtp_server_init(struct dentry *dir);
void rtp_server_exit(void);

#endif
