#!/bin/sh
# Regenerate tests/golden/tio.out: the tio section of make post on the
# fixture folders tests/fixtures/tio-a and tio-b (what tests/check_tio.c
# compares rt_tio() with).  Run from anywhere after `make`.
set -e
cd "$(dirname "$0")/../.."
report/vmreport --post tests/fixtures/tio-a tests/fixtures/tio-b |
	sed -n '/^Threaded I\/O Bench/,$p' > tests/golden/tio.out
echo tests/golden/tio.out
