#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""prom_check: read Prometheus text exposition on stdin with the
Prometheus client library's own parser (python3-prometheus-client), and
hold it to the naming the library writes: every family has HELP and
TYPE, a counter's samples end in _total, no name says "counter", and no
label is a process id. Prints each problem and exits 1 if there is one;
prints "N families, M samples" otherwise.

  prom_check [NAME=VALUE ...]   also: a sample NAME exists with VALUE
                                (a number, >0, or * for any); NAME may
                                carry labels: NAME{label="v",...}
"""
import re
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
problems = []
try:
    families = list(text_string_to_metric_families(text))
except Exception as e:  # the parser's own verdict
    print("parser: %s" % e)
    sys.exit(1)
names = set()
samples = {}
for f in families:
    if f.name in names:
        problems.append("%s: two families" % f.name)
    names.add(f.name)
    if not f.documentation:
        problems.append("%s: no HELP" % f.name)
    if f.type == "untyped":
        problems.append("%s: no TYPE" % f.name)
    if "counter" in f.name.split("_"):
        problems.append("%s: 'counter' in a name" % f.name)
    for s in f.samples:
        if f.type == "counter" and not s.name.endswith(("_total", "_created")):
            problems.append("%s: a counter's sample without _total" % s.name)
        for k in s.labels:
            if k in ("pid", "tgid") or re.search(r"(^|:)[0-9]+\.[0-9]+$", s.labels[k]) and \
                    s.labels[k].startswith("user:"):
                problems.append("%s: a process id in label %s" % (s.name, k))
        lab = ",".join('%s="%s"' % (k, v) for k, v in sorted(s.labels.items()))
        samples["%s{%s}" % (s.name, lab) if lab else s.name] = s.value
for want in sys.argv[1:]:
    name, value = want.rsplit("=", 1)
    m = re.match(r"^([^{]+)\{(.*)\}$", name)
    if m:
        labs = sorted(re.findall(r'([a-z_]+)="([^"]*)"', m.group(2)))
        name = "%s{%s}" % (m.group(1), ",".join('%s="%s"' % kv for kv in labs))
    got = samples.get(name)
    if got is None or (value == ">0" and not got > 0) or \
            (value not in ("*", ">0") and float(value) != got):
        problems.append("want %s = %s, got %s" % (name, value, got))
for p in problems:
    print(p)
if problems:
    sys.exit(1)
print("%d families, %d samples" % (len(families), len(samples)))
