#!/bin/sh
# Regenerate tests/golden/*.out from tests/golden/cases (see there).
# Run from the top of the tree after `make`:  sh tests/golden/regen.sh
set -e
cd "$(dirname "$0")/../.."
grep -v '^#' tests/golden/cases | grep -v '^ *$' | while read -r name args; do
	args=$(echo "$args" | sed 's#E/#results/examples/#g')
	# shellcheck disable=SC2086
	report/vmreport $args > "tests/golden/$name.out"
	echo "tests/golden/$name.out"
done
