# SPDX-License-Identifier: GPL-2.0
#
# rdmastor: top-level targets. make builds the kernel modules in place
# (Kbuild, see ./Kbuild) against the newest installed Debian kernel that
# has headers and an image (scripts/dev/kver), or KVER. The guests' builds
# (make modlayer) are one per supported kernel series installed
# (scripts/dev/kernels), each in a copy of its own under build/kbuild.

KVER ?= $(shell scripts/dev/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := build

# W=1 always: a warning is a bug here. -Werror so nobody misses one.
KMAKE = $(MAKE) -C $(KDIR) M=$(CURDIR) W=1 KCFLAGS=-Werror RDMASTOR_DEBUG=$(RDMASTOR_DEBUG)

# What only tests use (fault switches, tests/kmod; see Kbuild) is built
# for make check, bench and demo (their make modlayer), never for make,
# make install or DKMS. Passed to that one make only: exported, it
# reached the DKMS build deb_install runs, as a host's never would.

.PHONY: all modules librnic tools eval install uninstall modlayer modlayer-debug deps check check-debug unit lint docs demo bench fuzz deb deb-deps repo clean help

all: modules librnic tools eval

help:
	@echo "make          build every module against the installed Debian kernel, and librnic"
	@echo "make check    install dependencies, run unit and in-guest tests"
	@echo "make check-debug  the hostile-peer and fault tests on a KASAN, lockdep"
	@echo "              and kmemleak kernel (built once per machine, about 20 min)"
	@echo "make demo     boot a guest with soft-RoCE and show what rdmastor sees"
	@echo "make lint     checkpatch, sparse (C=2), a W=1 build, shellcheck, the docs"
	@echo "make docs     the documentation book (Sphinx) in build/docs"
	@echo "make bench    benchmarks (not part of check)"
	@echo "make fuzz     run the wire-decoder fuzzers longer"
	@echo "make deb      Debian packages (DKMS modules, tools) in build/deb, with"
	@echo "              debian/control's Build-Depends only (make deb-deps)"
	@echo "make repo     make deb, then a signed apt repository of its builds"
	@echo "              in build/repo (REPO=DIR), key in ~/.local/share/rdmastor"

deps:
	@scripts/dev/deps

# The packages need only their Build-Depends, never make deps' test
# toolchain: make deb installs nothing, make deb-deps installs those.
deb:
	@scripts/dev/make-deb

deb-deps:
	@scripts/dev/make-deb --build-deps

repo: deb
	@scripts/dev/make-repo build/deb/*.deb

# '+': make passes its jobserver only to a recipe line that names
# $(MAKE) itself, not through KMAKE; without it Kbuild ran one job at a
# time (59 s of make check's build)
modules:
	@test -n "$(KVER)" || { echo "no kernel found: run 'make deps'"; exit 1; }
	+$(KMAKE) modules

# The modules into this host's /lib/modules/KVER/updates/rdmastor, for
# whoever wants them there (scripts/dev/install-modules); make uninstall
# takes them out. The tests never do this: guests get the tree's modules
# from build/vm/modlayer (make modlayer).
install: modules
	@KVER=$(KVER) scripts/dev/install-modules

uninstall:
	@KVER=$(KVER) scripts/dev/install-modules --uninstall

# What guests boot with: for each supported kernel installed, the tree's
# modules built for it (scripts/dev/build-for) and their index, as a
# layer over the host's root, build/vm/modlayer-KVER
# (tests/lib/vm/build-modlayer). The host's /lib/modules is never written.
# The kernels one after the other, each build on every core ('+': the
# jobserver reaches the script's make); MODLAYER_SERIES="6.12": only
# those series.
modlayer: librnic tools eval
	@test -n "$$(scripts/dev/kernels)" || { echo "no supported kernel found: run 'make deps'"; exit 1; }
	+@scripts/dev/kernels | while read -r series kver; do \
		case " $(or $(MODLAYER_SERIES),$$series) " in *" $$series "*) ;; *) continue ;; esac; \
		src=$$(scripts/dev/build-for "$$kver" "$(RDMASTOR_DEBUG)") && \
		tests/lib/vm/build-modlayer "$$kver" $(BUILD)/vm/modlayer-$$kver "$$src" || exit 1; \
	done

# The same for the guests' debug kernel (scripts/dev/debug-kernel: built
# once per machine, outside the tree): the modules against its build
# tree, its own modules linked in the layer.
modlayer-debug: librnic tools eval
	+@dir=$$(scripts/dev/debug-kernel) && kver=$$(scripts/dev/kernels debug) && \
		src=$$(BUILD_FOR_KDIR=$$dir/build scripts/dev/build-for "$$kver" y) && \
		tests/lib/vm/build-modlayer "$$kver" $(BUILD)/vm/modlayer-$$kver "$$src" "$$dir/root"

# verbs programs the guest tests run (build/tools)
tools: librnic
	@$(MAKE) -s -C tests/tools
	@$(MAKE) -s -C bench/insncount

# the evaluation's host tools: the NIC translation cache simulator
# (build/eval; Documentation/evaluation.rst)
eval:
	@$(MAKE) -s -C eval

# the user-space library (build/librnic; make -C librnic install)
librnic:
	@$(MAKE) -s -C librnic

unit:
	@$(MAKE) -s -C tests/unit

# The build on every core: one at a time it took about 100 s of make
# check's time.
NPROC := $(shell nproc 2>/dev/null || echo 1)

# The first kernel series' modules are built before the tests; the
# others' at nice 19 beside the first series' guests (tests/lib/check's
# CHECK_BUILD_LATER): about 50 s of compiling off the critical path.
CHECK_SERIES = $(or $(CHECK_KERNELS),$(shell scripts/dev/kernels | awk '{ print $$1 }'))
check: deps
	@mkdir -p $(BUILD) && date +%s > $(BUILD)/check-t0
	@$(MAKE) -j$(NPROC) modlayer RDMASTOR_DEBUG=y MODLAYER_SERIES="$(firstword $(CHECK_SERIES))"
	@$(MAKE) -j$(NPROC) unit
	@CHECK_T0=$$(cat $(BUILD)/check-t0) CHECK_BUILD_LATER="$(wordlist 2,9,$(CHECK_SERIES))" tests/lib/check

# The hostile-peer, fault and removal tests (those whose "# vm-kernels:"
# line names debug) on the debug kernel: KASAN, lockdep, kmemleak. Not
# part of make check, which it would take past 40 minutes
# (Documentation/testing.rst, "The debug lane").
check-debug: deps
	@mkdir -p $(BUILD) && date +%s > $(BUILD)/check-t0
	@$(MAKE) -j$(NPROC) modlayer-debug
	@CHECK_T0=$$(cat $(BUILD)/check-t0) CHECK_KERNELS=debug CHECK_GUESTS_ONLY=1 \
		CHECK_RESULTS=$(BUILD)/check-debug-results.txt tests/lib/check

lint: deps
	@scripts/dev/lint

demo: deps
	@$(MAKE) modlayer RDMASTOR_DEBUG=y
	@scripts/demo/start

# The documentation book: Documentation/index.rst and what its toctree
# names, as HTML in build/docs. -W: a warning fails (make lint runs it).
docs:
	@sphinx-build -W -q -b html Documentation $(BUILD)/docs

bench: deps
	@$(MAKE) modlayer RDMASTOR_DEBUG=y
	@bench/drivers/bench

# Longer fuzzing than make check's (FUZZ_SECONDS per target, default 300).
fuzz:
	@$(MAKE) -s -C tests/fuzz
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-300} tests/fuzz/run-tap

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C tests/unit clean
	rm -rf $(BUILD)
