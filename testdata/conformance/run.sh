#!/usr/bin/env bash
# run.sh SCENARIO... — runs MCP conformance client scenarios with mcpdeck's CLI
# as the client (client.sh) and prints one line per scenario with its checks.
# run.sh --all runs every client scenario the suite lists (for the spec version
# when one is set).
#
# A scenario passes when the suite passes it AND it reported at least the
# SUCCESS checks listed in $CONFORMANCE_CHECKS (default expected-checks.txt;
# unlisted scenarios need 1: a scenario with 0 checks proves nothing: failed).
# Scenarios named in $CONFORMANCE_BASELINE (one per line) are expected to fail
# for now: they are reported but do not fail the run; one that passes while
# listed is reported as stale so the list gets trimmed.
#
# Environment: MCPDECK_BIN (the mcpdeck binary), MCPDECK_NPM_DIR
# (testdata/npm/node_modules), CONFORMANCE_OUT (results directory),
# CONFORMANCE_TIMEOUT (ms per scenario, default 30000), CONFORMANCE_SUITE (the
# suite's package directory under MCPDECK_NPM_DIR, default
# @modelcontextprotocol/conformance; conformance-next is the npm alias of the
# next suite version, see testdata/npm/package.json), CONFORMANCE_SPEC_VERSION
# (passed to the suite as --spec-version: the scenarios' servers speak that
# protocol version).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
npm_dir="${MCPDECK_NPM_DIR:-$root/testdata/npm/node_modules}"
export MCPDECK_BIN="${MCPDECK_BIN:-$root/bin/mcpdeck}"
out="${CONFORMANCE_OUT:-$root/.cache/conformance}"
timeout_ms="${CONFORMANCE_TIMEOUT:-30000}"
baseline="${CONFORMANCE_BASELINE:-}"
checks_file="${CONFORMANCE_CHECKS:-$here/expected-checks.txt}"
suite="${CONFORMANCE_SUITE:-@modelcontextprotocol/conformance}"
spec_version="${CONFORMANCE_SPEC_VERSION:-}"

# shellcheck source=suite.sh
. "$here/suite.sh"
spec_args=()
[ -z "$spec_version" ] || spec_args=(--spec-version "$spec_version")
[ -x "$MCPDECK_BIN" ] || {
	echo "conformance: $MCPDECK_BIN not built (make build)" >&2
	exit 1
}
[ $# -gt 0 ] || {
	echo "usage: run.sh SCENARIO... | run.sh --all" >&2
	exit 2
}
if [ "$1" = --all ]; then
	# "  - name [versions]" lines of the suite's client scenario list
	mapfile -t all < <(conformance list --client "${spec_args[@]}" | sed -n 's/^ *- \([^ ]*\).*/\1/p')
	[ ${#all[@]} -gt 0 ] || {
		echo "conformance: $suite lists no client scenarios" >&2
		exit 1
	}
	set -- "${all[@]}"
fi

# min_checks SCENARIO: the SUCCESS checks it must report ($checks_file), or 1.
min_checks() {
	local n
	n=$(awk -v s="$1" '$1 == s { print $2 }' "$checks_file" 2>/dev/null)
	echo "${n:-1}"
}

expected_fail() {
	[ -n "$baseline" ] && [ -f "$baseline" ] && grep -qxF "$1" <(grep -v '^#' "$baseline")
}

rm -rf "$out"
mkdir -p "$out"
rc=0 ok=0 bad=0 warn=0
failed=0
passed=0
stale=0
# run_one SCENARIO DIR: runs the scenario once; sets rc ok bad warn.
run_one() {
	rm -rf "$2"
	mkdir -p "$2"
	rc=0
	conformance client --command "$here/client.sh" --scenario "$1" "${spec_args[@]}" \
		--timeout "$timeout_ms" -o "$2" >"$2/runner.log" 2>&1 || rc=$?
	read -r ok bad warn < <(node "$here/count.mjs" "$2")
}

for s in "$@"; do
	dir="$out/${s//\//_}"
	start=$SECONDS
	run_one "$s" "$dir"
	rerun=""
	# Timing checks (sse-retry allows 200 ms of lateness) give a WARNING on a
	# loaded machine: a run whose only complaints are warnings is retried once.
	if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -gt 0 ] && [ "${CONFORMANCE_RETRIES:-1}" -gt 0 ]; then
		mv "$dir" "$dir.first"
		rerun=" (2nd run; 1st had $warn warning(s), see $dir.first)"
		run_one "$s" "$dir"
	fi
	took=$((SECONDS - start))
	want=$(min_checks "$s")
	verdict=PASS
	if [ "$rc" -ne 0 ] || [ "$bad" -gt 0 ] || [ "$ok" -lt "$want" ]; then
		verdict=FAIL
	fi
	note="$rerun"
	[ $((ok + bad)) -eq 0 ] && note="$note (0 checks)"
	[ "$ok" -lt "$want" ] && note="$note (expected at least $want passed checks)"
	if [ "$verdict" = FAIL ]; then
		if expected_fail "$s"; then
			verdict="xfail"
		else
			failed=$((failed + 1))
		fi
	else
		passed=$((passed + 1))
		if expected_fail "$s"; then
			note="$note (listed in baseline: stale)"
			stale=$((stale + 1))
		fi
	fi
	printf '%-5s %-45s %2d passed, %d failed, %d warnings  %3ds%s\n' \
		"$verdict" "$s" "$ok" "$bad" "$warn" "$took" "$note"
	if [ "$verdict" != PASS ]; then
		# show why: the suite's failed checks and the client's own output
		sed 's/\x1b\[[0-9;]*m//g' "$dir/runner.log" | grep -E 'FAILURE|WARNING|Client exited|timed out|Error' | head -20 | sed 's/^/      /' || true
		find "$dir" -name stderr.txt -exec tail -n 15 {} \; | sed 's/^/      stderr: /' || true
	fi
done
xfailed=$(($# - passed - failed))
echo "conformance: $passed passed, $failed failed, $xfailed expected failures of $# (results in $out)"
[ "$stale" -eq 0 ] || echo "conformance: $stale passing scenario(s) still listed in $baseline: remove them"
[ "$failed" -eq 0 ]
