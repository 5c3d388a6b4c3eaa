# make boots: kernels A and B booted alternately in QEMU, each boot's
# results one run of its label (src/boots/, docs/boots.md).
#   make boots A_KERNEL=img [B_KERNEL=img] [A_CMDLINE=..] [B_CMDLINE=..]
#              [A_LABEL=..] [B_LABEL=..] [VM_MEM=1G] [A_MEM=..] [B_MEM=..]
#              [VM_CPUS=2] [BOOTS=3] [ORDER=ABBA] [CONFIG=..] [ACCEL=auto]
#              [A_MODULES=dir] [B_MODULES=dir] [BOOT_TIMEOUT=s] [VM_DISK=4G]
#              [QUIET=pct] [QUIET_WAIT=duration]
#   make test-kernel [TEST_KERNEL=6.1.0-57-cloud-amd64]   Debian's kernel
#              into ~/.cache/vmbench/kernels/ (src/boots/get-kernel.sh)
#   make deps-boots   the Debian packages boots need (as root)
#   make bench-boots  the time of a boot, and two plans (docs/validation.md)
# vmboots' own modules (main and those over struct boots_ctx, boots.h)
# are linked into vmboots only; the others into the tests too
BOOTS_PROG := $(patsubst %,src/boots/%.o,vmboots stale vm steps)
BOOTS_MODS := $(filter-out $(BOOTS_PROG),$(patsubst %.c,%.o,\
	$(wildcard src/boots/*.c)))
PROGS += bench/vmboots
ALL_OBJS += $(BOOTS_MODS) $(BOOTS_PROG)
all: bench/vmboots

# vmboots sees its own headers and lib's (make ab's order: src/lib/ab.c)
src/boots/%.o: CPPFLAGS += -Isrc/boots
# the guest's init is linked into the program (.incbin)
src/boots/guest.o: src/boots/init.sh

bench/vmboots: $(BOOTS_PROG) $(BOOTS_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the tests see the boots layer too
TEST_CPPFLAGS += -Isrc/boots
$(TEST_BIN): $(BOOTS_MODS)

BOOTS_DEB_PKGS := qemu-system-x86 busybox-static e2fsprogs

# each as VB_NAME in the environment, never as shell text (Makefile)
$(call vb_export,A_KERNEL B_KERNEL A_CMDLINE B_CMDLINE VM_MEM A_MEM B_MEM \
	VM_CPUS BOOTS ACCEL A_MODULES B_MODULES BOOT_TIMEOUT VM_DISK TEST_KERNEL)

.PHONY: boots test-kernel deps-boots bench-boots clean-stale-boots
# exec'd, watching make (mk/workflows.mk, src/lib/parentwatch.h)
boots clean-stale-boots: export VB_FROM_MAKE := 1
boots: all
	$(Q)exec bench/vmboots --a-kernel "$$VB_A_KERNEL" \
	    $${VB_B_KERNEL:+--b-kernel "$$VB_B_KERNEL"} \
	    --a-cmdline "$$VB_A_CMDLINE" --b-cmdline "$$VB_B_CMDLINE" \
	    $${VB_A_LABEL:+--a-label "$$VB_A_LABEL"} \
	    $${VB_B_LABEL:+--b-label "$$VB_B_LABEL"} \
	    $${VB_VM_MEM:+--mem "$$VB_VM_MEM"} \
	    $${VB_A_MEM:+--a-mem "$$VB_A_MEM"} \
	    $${VB_B_MEM:+--b-mem "$$VB_B_MEM"} \
	    $${VB_VM_CPUS:+--cpus "$$VB_VM_CPUS"} \
	    $${VB_BOOTS:+--boots "$$VB_BOOTS"} \
	    $${VB_ORDER:+--order "$$VB_ORDER"} \
	    $${VB_ACCEL:+--accel "$$VB_ACCEL"} \
	    $${VB_A_MODULES:+--a-modules "$$VB_A_MODULES"} \
	    $${VB_B_MODULES:+--b-modules "$$VB_B_MODULES"} \
	    $${VB_BOOT_TIMEOUT:+--timeout "$$VB_BOOT_TIMEOUT"} \
	    $${VB_VM_DISK:+--disk "$$VB_VM_DISK"} \
	    $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"} \
	    $${VB_QUIET:+--quiet "$$VB_QUIET"} \
	    $${VB_QUIET_WAIT:+--quiet-wait "$$VB_QUIET_WAIT"} \
	    --config "$$VB_CONFIG" --results "$$VB_RESULTS"

# a killed make boots: its QEMU and images (make clean-stale runs this)
clean-stale: clean-stale-boots
clean-stale-boots: bench/vmboots
	$(Q)exec bench/vmboots --clean-stale $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"}

test-kernel:
	$(Q)sh src/boots/get-kernel.sh $${VB_TEST_KERNEL:+"$$VB_TEST_KERNEL"}

deps-boots:
	@if [ "$$(id -u)" != 0 ]; then \
	    echo "make deps-boots: not root; run:" >&2; \
	    echo "    sudo apt-get install -y $(BOOTS_DEB_PKGS)" >&2; exit 1; fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends $(BOOTS_DEB_PKGS)

