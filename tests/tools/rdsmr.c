// SPDX-License-Identifier: GPL-2.0
/*
 * rdsmr: make the stock RDS over RDMA (rds_rdma) allocate MRs, for the
 * test of what it does when rnic_mgr's cap refuses one
 * (tests/vm/rnic_mgr_kulp_rds.sh).
 *
 *   rdsmr IP MAPS BYTES
 *
 * Two RDS sockets bound to IP (ports 18634 and 18635): a plain message
 * from one to the other brings up their RDS connection, which is an
 * RDMA one (RDS's IB transport keeps a connection to one of the host's
 * own addresses on the device; only its TCP transport takes loopback).
 * Then MAPS messages, each asking RDS to map a buffer of BYTES for the
 * peer's RDMA (RDS_CMSG_RDMA_MAP), which is where rds_rdma allocates
 * its MRs (ib_alloc_mr, in pools of 3 and 257 pages). The mappings are
 * kept until the end, so each one needs an MR of its own. Then a
 * plain message again: a refused mapping fails that send only, and the
 * connection carries on. One line per step:
 *
 *   connected
 *   map N ok
 *   map N refused: STRERROR
 *   plain after maps ok
 *
 * Exit status: 0 when every map went through, 2 when one was refused
 * (the rest are not tried), 1 for anything else.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/rds.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PORT_RX 18634
#define PORT_TX 18635

static int rds_socket(const char *ip, int port, struct sockaddr_in *sin)
{
	int fd = socket(AF_RDS, SOCK_SEQPACKET, 0);

	if (fd < 0) {
		perror("socket(AF_RDS)");
		return -1;
	}
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (inet_pton(AF_INET, ip, &sin->sin_addr) != 1) {
		fprintf(stderr, "rdsmr: not an IPv4 address: %s\n", ip);
		close(fd);
		return -1;
	}
	if (bind(fd, (struct sockaddr *)sin, sizeof(*sin))) {
		fprintf(stderr, "rdsmr: bind %s:%d: %s\n", ip, port, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* send @len bytes to @to, with one RDS_CMSG_RDMA_MAP of @map if given */
static ssize_t rds_send(int fd, struct sockaddr_in *to, void *buf, size_t len,
			struct rds_get_mr_args *map)
{
	char cbuf[CMSG_SPACE(sizeof(*map))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_name = to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	struct cmsghdr *c;

	if (map) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_RDS;
		c->cmsg_type = RDS_CMSG_RDMA_MAP;
		c->cmsg_len = CMSG_LEN(sizeof(*map));
		memcpy(CMSG_DATA(c), map, sizeof(*map));
	}
	return sendmsg(fd, &msg, 0);
}

/* one message at @fd within 20 s (the connection's first comes up slowly) */
static int rds_recv(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[256];

	if (poll(&p, 1, 20000) != 1) {
		fprintf(stderr, "rdsmr: no message within 20 s\n");
		return -1;
	}
	if (recv(fd, buf, sizeof(buf), 0) < 0) {
		perror("recv");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in rx_addr, tx_addr;
	struct rds_get_mr_args map;
	int rx, tx, maps, i, rc = 0;
	char hello[] = "rdsmr";
	uint64_t *cookies;
	size_t bytes;
	char *bufs;

	if (argc != 4) {
		fprintf(stderr, "usage: rdsmr IP MAPS BYTES\n");
		return 1;
	}
	maps = atoi(argv[2]);
	bytes = strtoul(argv[3], NULL, 0);
	if (maps < 1 || bytes < 1 || bytes > (1 << 20)) {
		fprintf(stderr, "rdsmr: MAPS at least 1, BYTES 1..1048576\n");
		return 1;
	}
	bufs = aligned_alloc(4096, (size_t)maps * ((bytes + 4095) & ~4095UL));
	cookies = calloc(maps, sizeof(*cookies));
	if (!bufs || !cookies) {
		perror("alloc");
		return 1;
	}
	memset(bufs, 0x5a, (size_t)maps * ((bytes + 4095) & ~4095UL));
	rx = rds_socket(argv[1], PORT_RX, &rx_addr);
	tx = rds_socket(argv[1], PORT_TX, &tx_addr);
	if (rx < 0 || tx < 0)
		return 1;
	if (rds_send(tx, &rx_addr, hello, sizeof(hello), NULL) < 0) {
		perror("send");
		return 1;
	}
	if (rds_recv(rx))
		return 1;
	printf("connected\n");
	fflush(stdout);
	for (i = 0; i < maps; i++) {
		memset(&map, 0, sizeof(map));
		map.vec.addr = (uintptr_t)(bufs + (size_t)i * ((bytes + 4095) & ~4095UL));
		map.vec.bytes = bytes;
		map.cookie_addr = (uintptr_t)&cookies[i];
		if (rds_send(tx, &rx_addr, hello, sizeof(hello), &map) < 0) {
			printf("map %d refused: %s\n", i + 1, strerror(errno));
			rc = 2;
			break;
		}
		if (rds_recv(rx))
			return 1;
		printf("map %d ok\n", i + 1);
		fflush(stdout);
	}
	if (rds_send(tx, &rx_addr, hello, sizeof(hello), NULL) < 0 || rds_recv(rx)) {
		fprintf(stderr, "rdsmr: the plain message after the maps failed\n");
		return 1;
	}
	printf("plain after maps ok\n");
	close(tx);
	close(rx);
	free(cookies);
	free(bufs);
	return rc;
}
