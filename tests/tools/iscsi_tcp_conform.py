#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A minimal iSCSI initiator over TCP that runs the conformance cases of
iser_evil's "conform" mode (tests/kmod/iser_evil.c) against LIO's TCP
portal and prints one line per case in the same format, so that a test
can compare rdmastor's iSER target with LIO over TCP, on the same LUN:

    NAME st=SS fl=[o-][u-] res=R data=N crc=C    (C: CRC-32 of the data)
    NAME none                                    (no answer within 1 s)
    NAME reject reason=RR
    NAME dropped                                 (the target ended the connection)
    NAME tmf=R cmd=0|1                           (abort-race: TMF response,
                                                  whether the command's status came)

Usage: iscsi_tcp_conform.py HOST PORT TARGET_IQN [nopttt]

With "nopttt", send only a NOP-Out that answers a ping the target never
sent (iser_evil mode nopttt) and print "dropped" if the target ends the
connection within 5 s, else the opcodes it sent.
"""
import socket
import struct
import sys
import zlib

# (name, CDB, EDTL, flags (R 0x40), CmdSN: 0 in order, 1 beyond MaxCmdSN,
# -1 below ExpCmdSN; 2: the command, then at once an ABORT TASK for it;
# 3: rejected, its CmdSN used again; 4, 5: a WRITE, half immediate data,
# half an unsolicited Data-Out with DataSN 0 or 5)
# -- keep in step with evil_cases[] in iser_evil.c
CASES = [
    ("read-edtl-over-cdb", bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0]), 4096, 0x40, 0),
    ("read-edtl-under-cdb", bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0]), 1024, 0x40, 0),
    ("read-edtl-zero", bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0]), 0, 0x40, 0),
    ("inquiry-255", bytes([0x12, 0, 0, 0, 255, 0]), 255, 0x40, 0),
    ("inquiry-alloc-8", bytes([0x12, 0, 0, 0, 8, 0]), 96, 0x40, 0),
    ("inquiry-edtl-8", bytes([0x12, 0, 0, 0, 96, 0]), 8, 0x40, 0),
    ("inquiry-vpd80-4", bytes([0x12, 1, 0x80, 0, 4, 0]), 4, 0x40, 0),
    ("mode-sense-255", bytes([0x1a, 0, 0x3f, 0, 255, 0]), 255, 0x40, 0),
    ("mode-sense-edtl-4", bytes([0x1a, 0, 0x3f, 0, 192, 0]), 4, 0x40, 0),
    ("mode-sense-alloc-2", bytes([0x1a, 0, 0x3f, 0, 2, 0]), 64, 0x40, 0),
    ("cmdsn-beyond-max", bytes(16), 0, 0, 1),
    ("cmdsn-below-exp", bytes(16), 0, 0, -1),
    ("abort-race", bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 32, 0]), 16384, 0x40, 2),
    ("tur-after", bytes(16), 0, 0, 0),
    ("read-no-r-bit", bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0]), 512, 0, 3),
    ("write-unsolicited", bytes([0x2a, 0, 0, 0, 0, 100, 0, 0, 32, 0]), 16384, 0x20, 4),
    ("read-back", bytes([0x28, 0, 0, 0, 0, 100, 0, 0, 32, 0]), 16384, 0x40, 0),
    # last: it ends the connection
    ("write-bad-datasn", bytes([0x2a, 0, 0, 0, 0, 200, 0, 0, 32, 0]), 16384, 0x20, 5),
]

KEYS = [
    "SessionType=Normal", "HeaderDigest=None", "DataDigest=None",
    "ImmediateData=Yes", "InitialR2T=No", "MaxConnections=1",
    "ErrorRecoveryLevel=0", "MaxRecvDataSegmentLength=8192",
    "MaxBurstLength=262144", "FirstBurstLength=65536", "MaxOutstandingR2T=1",
    "DefaultTime2Wait=2", "DefaultTime2Retain=0", "DataPDUInOrder=Yes",
    "DataSequenceInOrder=Yes",
]


class Session:
    def __init__(self, host, port, iqn):
        self.s = socket.create_connection((host, port), timeout=10)
        self.iqn = iqn
        self.itt = 1
        self.cmdsn = 1
        self.exp_statsn = 0
        self.max_cmdsn = 1

    def recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.s.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("target closed the connection")
            buf += chunk
        return buf

    def recv_pdu(self, timeout):
        self.s.settimeout(timeout)
        bhs = self.recv_exact(48)
        self.s.settimeout(10)
        ahs = bhs[4] * 4
        dlen = int.from_bytes(bhs[5:8], "big")
        rest = self.recv_exact(ahs + ((dlen + 3) & ~3))
        return bhs, rest[ahs:ahs + dlen]

    def send_pdu(self, bhs, data=b""):
        pad = (-len(data)) % 4
        self.s.sendall(bytes(bhs) + data + bytes(pad))

    def login(self):
        keys = ("InitiatorName=iqn.2026-11.org.rdmastor:tcpconform\0"
                "TargetName=%s\0" % self.iqn + "".join(k + "\0" for k in KEYS)).encode()
        for _ in range(4):
            bhs = bytearray(48)
            bhs[0] = 0x40 | 0x03
            bhs[1] = 0x80 | 0x04 | 0x03      # T, CSG operational, NSG full feature
            bhs[5:8] = len(keys).to_bytes(3, "big")
            bhs[8] = 0x80                    # ISID: random format
            bhs[13] = 0x03
            struct.pack_into(">III", bhs, 16, self.itt, 0, self.cmdsn)
            struct.pack_into(">I", bhs, 28, self.exp_statsn)
            self.send_pdu(bhs, keys)
            rsp, _ = self.recv_pdu(10)
            if rsp[36] or rsp[37]:
                raise RuntimeError("login refused %02x%02x" % (rsp[36], rsp[37]))
            self.exp_statsn = struct.unpack_from(">I", rsp, 24)[0] + 1
            self.cmdsn = struct.unpack_from(">I", rsp, 28)[0]
            self.max_cmdsn = struct.unpack_from(">I", rsp, 32)[0]
            if rsp[1] & 0x83 == 0x83:
                self.itt += 1
                return
            keys = b""
        raise RuntimeError("login did not complete")

    def nop_answer(self, bhs):
        """Answer a NOP-In ping that wants an answer (TTT set)."""
        if bhs[20:24] == b"\xff\xff\xff\xff":
            return
        out = bytearray(48)
        out[0] = 0x40
        out[1] = 0x80
        out[16:20] = b"\xff\xff\xff\xff"
        out[20:24] = bhs[20:24]
        struct.pack_into(">II", out, 24, self.cmdsn, self.exp_statsn)
        self.send_pdu(out)

    def run(self, case):
        name, cdb, edtl, flags, sn = case
        itt = self.itt
        self.itt += 1
        cmdsn = self.cmdsn
        if sn == 1:
            cmdsn = self.max_cmdsn + 5
        elif sn < 0:
            cmdsn = self.cmdsn - 1
        elif sn != 3:
            self.cmdsn += 1
        bhs = bytearray(48)
        bhs[0] = 0x01
        bhs[1] = 0x80 | flags | 0x01
        struct.pack_into(">IIII", bhs, 16, itt, edtl, cmdsn, self.exp_statsn)
        bhs[32:32 + len(cdb)] = cdb
        if sn in (4, 5):
            return self.write(name, bhs, edtl, 5 if sn == 5 else 0)
        self.send_pdu(bhs)
        if sn == 2:
            return self.abort(name, itt, cmdsn)
        data = bytearray()
        wait = 1.0 if sn else 5.0
        while True:
            try:
                rsp, seg = self.recv_pdu(wait)
            except socket.timeout:
                return "%s none" % name
            op = rsp[0] & 0x3f
            if op in (0x20, 0x21, 0x25):
                self.max_cmdsn = struct.unpack_from(">I", rsp, 32)[0]
            if op == 0x20:
                self.nop_answer(rsp)
                continue
            if op == 0x3f:
                return "%s reject reason=%02x" % (name, rsp[2])
            if struct.unpack_from(">I", rsp, 16)[0] != itt:
                continue
            status = None
            if op == 0x25:                   # Data-In
                off = struct.unpack_from(">I", rsp, 40)[0]
                if len(data) < off + len(seg):
                    data.extend(bytes(off + len(seg) - len(data)))
                data[off:off + len(seg)] = seg
                if rsp[1] & 0x01:            # S: status in the Data-In
                    status = rsp
            elif op == 0x21:
                status = rsp
            if status is None:
                continue
            self.exp_statsn = struct.unpack_from(">I", status, 24)[0] + 1
            fl = status[1]
            return "%s st=%02x fl=%s%s res=%u data=%u crc=%08x" % (
                name, status[3], "o" if fl & 0x04 else "-", "u" if fl & 0x02 else "-",
                struct.unpack_from(">I", status, 44)[0], len(data),
                zlib.crc32(bytes(data)) & 0xffffffff)


    def write(self, name, bhs, edtl, datasn):
        """Half immediate data, half an unsolicited Data-Out."""
        half = edtl // 2
        data = bytes((i * 7 + 3) & 0xff for i in range(edtl))
        bhs[1] &= ~0x80                  # F clear: unsolicited data follows
        bhs[5:8] = half.to_bytes(3, "big")
        self.send_pdu(bhs, data[:half])
        dout = bytearray(48)
        dout[0] = 0x05
        dout[1] = 0x80
        dout[5:8] = half.to_bytes(3, "big")
        dout[16:20] = bhs[16:20]
        struct.pack_into(">IIIII", dout, 20, 0xffffffff, 0, self.exp_statsn, 0, datasn)
        struct.pack_into(">I", dout, 40, half)
        self.send_pdu(dout, data[half:])
        while True:
            try:
                rsp, _ = self.recv_pdu(5.0)
            except socket.timeout:
                return "%s none" % name
            except ConnectionError:
                return "%s dropped" % name
            op = rsp[0] & 0x3f
            if op == 0x20:
                self.nop_answer(rsp)
                continue
            if op == 0x3f:
                return "%s reject reason=%02x" % (name, rsp[2])
            if op != 0x21 or rsp[16:20] != bhs[16:20]:
                continue
            self.exp_statsn = struct.unpack_from(">I", rsp, 24)[0] + 1
            fl = rsp[1]
            return "%s st=%02x fl=%s%s res=%u data=0 crc=00000000" % (
                name, rsp[3], "o" if fl & 0x04 else "-", "u" if fl & 0x02 else "-",
                struct.unpack_from(">I", rsp, 44)[0])

    def abort(self, name, ref_itt, ref_cmdsn):
        """An immediate ABORT TASK right behind command @ref_itt."""
        tmf = bytearray(48)
        tmf[0] = 0x40 | 0x02
        tmf[1] = 0x80 | 0x01
        struct.pack_into(">IIIII", tmf, 16, self.itt, ref_itt, self.cmdsn,
                         self.exp_statsn, ref_cmdsn)
        self.itt += 1
        self.send_pdu(tmf)
        cmd_done, tmf_rsp, wait = 0, None, 10.0
        while True:
            try:
                rsp, _ = self.recv_pdu(wait)
            except socket.timeout:
                break
            op = rsp[0] & 0x3f
            if op == 0x20:
                self.nop_answer(rsp)
                continue
            if op == 0x22:
                tmf_rsp = rsp[2]
                wait = 2.0       # the command's status, if it is to come
            if op == 0x21 or (op == 0x25 and rsp[1] & 0x01):
                if struct.unpack_from(">I", rsp, 16)[0] == ref_itt:
                    cmd_done = 1
            if op in (0x21, 0x22) or (op == 0x25 and rsp[1] & 0x01):
                self.exp_statsn = max(self.exp_statsn,
                                      struct.unpack_from(">I", rsp, 24)[0] + 1)
            if tmf_rsp is not None and cmd_done:
                break
        if tmf_rsp is None:
            return "%s none" % name
        return "%s tmf=%u cmd=%u" % (name, tmf_rsp, cmd_done)


def nopttt(sess):
    out = bytearray(48)
    out[0] = 0x40
    out[1] = 0x80
    out[16:20] = b"\xff\xff\xff\xff"
    struct.pack_into(">III", out, 20, 0x7e57, sess.cmdsn, sess.exp_statsn)
    sess.send_pdu(out)
    seen = []
    try:
        while True:
            rsp, _ = sess.recv_pdu(5.0)
            seen.append("0x%02x" % (rsp[0] & 0x3f))
    except socket.timeout:
        pass
    except (ConnectionError, OSError):
        seen.append("dropped")
    print(" ".join(seen) or "silent")


def main():
    host, port, iqn = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sess = Session(host, port, iqn)
    sess.login()
    if sys.argv[4:] == ["nopttt"]:
        nopttt(sess)
        return
    for case in CASES:
        print(sess.run(case), flush=True)
    sess.s.close()


if __name__ == "__main__":
    main()
