#!/usr/bin/env bash
# server.sh — runs the conformance suite's server scenarios against the
# reference server (testdata/confserver) directly over HTTP, then through
# `mcpdeck serve --http` (the reference as its one stdio server, --prefix
# auto, reached at the capability URL /mcp/TOKEN), and prints one line per
# scenario with both results.
#
# A scenario passes when the suite passes it AND it reported at least one
# SUCCESS check (0 checks prove nothing: failed). There is no second run: a
# scenario that fails on a busy machine is a defect to find, not to retry
# (tools-call-with-progress was one: ui/serve/inorder).
#
# With CONFORMANCE_STDIO=1 a third column runs the suite against `mcpdeck
# serve` on stdio, made reachable over HTTP by supergateway (testdata/npm;
# one serve per session): the suite reaches servers over HTTP only. Its
# dns-rebinding-protection answer is supergateway's, not serve's, and is
# reported, not judged.
#
# The run fails when
#   - the reference fails a scenario not in $CONFORMANCE_BASELINE (the
#     scenarios the reference itself does not implement), or
#   - a scenario the reference passes fails through serve (a serve bug),
#     unless $CONFORMANCE_SERVE_BUGS names it (open serve bugs, each with
#     its cause: to be fixed, not a baseline), or
#   - dns-rebinding-protection, when the suite has it, fails against serve,
#   - with CONFORMANCE_STDIO, a scenario the reference passes fails through
#     serve on stdio (dns-rebinding-protection aside).
# A listed scenario that passes is reported as stale, to trim the list.
#
# Environment: MCPDECK_BIN, CONFSERVER_BIN (built by make), MCPDECK_NPM_DIR,
# CONFORMANCE_OUT (results), CONFORMANCE_SUITE (default
# @modelcontextprotocol/conformance; conformance-next is the next version),
# CONFORMANCE_REQUIREMENTS (passed as --requirements, e.g. 2026-07-28),
# CONFORMANCE_BASELINE, CONFORMANCE_SERVE_BUGS (files, one scenario a
# line, # comments).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
npm_dir="${MCPDECK_NPM_DIR:-$root/testdata/npm/node_modules}"
mcpdeck="${MCPDECK_BIN:-$root/bin/mcpdeck}"
confserver="${CONFSERVER_BIN:-$root/bin/confserver}"
out="${CONFORMANCE_OUT:-$root/.cache/conformance-serve}"
suite="${CONFORMANCE_SUITE:-@modelcontextprotocol/conformance}"
requirements="${CONFORMANCE_REQUIREMENTS:-}"
baseline="${CONFORMANCE_BASELINE:-}"
serve_bugs="${CONFORMANCE_SERVE_BUGS:-}"
stdio="${CONFORMANCE_STDIO:-}"

# shellcheck source=suite.sh
. "$here/suite.sh"
for b in "$mcpdeck" "$confserver"; do
	[ -x "$b" ] || {
		echo "conformance: $b not built (make build, or make conformance-serve)" >&2
		exit 1
	}
done

rm -rf "$out"
mkdir -p "$out"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT

# url_from LOG: waits (30 s at most) until LOG says "listening on URL" and prints URL.
url_from() {
	local i
	for ((i = 0; i < 300; i++)); do
		if grep -q 'listening on http' "$1" 2>/dev/null; then
			sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$1" | head -1
			return 0
		fi
		sleep 0.1
	done
	echo "conformance: no 'listening on' in $1:" >&2
	cat "$1" >&2
	return 1
}

# The reference, on its own.
"$confserver" -http 127.0.0.1:0 2>"$out/confserver.log" &
pids+=($!)
direct_url=$(url_from "$out/confserver.log")

# mcpdeck serve, isolated from the person's config, the reference as its one
# server; the token in the path, as an agent that takes only a URL uses it.
work="$out/serve-home"
mkdir -p "$work/home" "$work/config" "$work/cache" "$work/managed"
token=$(node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))')
cfg=$(printf '{"mcpServers":{"ref":{"command":"%s"}}}' "$confserver")
(
	cd "$work/home"
	HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" \
		MCPDECK_MANAGED_DIR="$work/managed" MCPDECK_SERVE_TOKEN="$token" \
		exec "$mcpdeck" --mcp-config "$cfg" serve --http 127.0.0.1:0 --prefix auto
) 2>"$out/serve.log" &
pids+=($!)
serve_url="$(url_from "$out/serve.log")/$token"

# serve on stdio behind supergateway (stateful: one serve per session).
stdio_url=""
if [ -n "$stdio" ]; then
	port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
	{
		echo '#!/bin/sh'
		echo "cd '$work/home' || exit 1"
		echo "HOME='$work/home' XDG_CONFIG_HOME='$work/config' XDG_CACHE_HOME='$work/cache' MCPDECK_MANAGED_DIR='$work/managed' \\"
		echo "	exec '$mcpdeck' --mcp-config '$cfg' serve --prefix auto"
	} >"$out/serve-stdio.sh"
	chmod +x "$out/serve-stdio.sh"
	node "$npm_dir/supergateway/dist/index.js" --stdio "$out/serve-stdio.sh" --outputTransport streamableHttp \
		--stateful --port "$port" --streamableHttpPath /mcp >"$out/supergateway.log" 2>&1 &
	pids+=($!)
	stdio_url="http://127.0.0.1:$port/mcp"
	node -e 'const port = +process.argv[1]; const end = Date.now() + 30000;
(function again() { const s = require("net").connect(port, "127.0.0.1", () => { s.end(); process.exit(0); });
  s.on("error", () => { if (Date.now() > end) process.exit(1); setTimeout(again, 100); }); })();' "$port" || {
		echo "conformance: supergateway did not listen on $port:" >&2
		cat "$out/supergateway.log" >&2
		exit 1
	}
	loopback_only "$port" || exit 1
fi

req_args=()
[ -z "$requirements" ] || req_args=(--requirements "$requirements")

# run_all NAME URL: the whole suite against URL, results in $out/NAME.
run_all() {
	mkdir -p "$out/$1"
	conformance server --url "$2" "${req_args[@]}" -o "$out/$1" >"$out/$1.log" 2>&1 || true
}

# scenarios NAME: the scenarios of a run, from its result directories
# (server-SCENARIO-TIMESTAMP).
scenarios() {
	find "$out/$1" -mindepth 1 -maxdepth 1 -type d -name 'server-*' -printf '%f\n' |
		sed -E 's/^server-//; s/-[0-9]{4}-[0-9]{2}-[0-9]{2}T.*$//' | sort -u
}

# counts DIR: "SUCCESS FAILURE WARNING" of the checks under DIR.
counts() { node "$here/count.mjs" "$1"; }

# verdict OK BAD: PASS when at least one check passed and none failed.
verdict() { if [ "$1" -gt 0 ] && [ "$2" -eq 0 ]; then echo PASS; else echo FAIL; fi; }

listed() {
	[ -n "$1" ] && [ -f "$1" ] && grep -qxF "$2" <(grep -v '^#' "$1" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//')
}

# result NAME SCENARIO: sets v (PASS/FAIL), ok, bad, note.
result() {
	local dir
	dir=$(find "$out/$1" -mindepth 1 -maxdepth 1 -type d -name "server-$2-2*" | head -1)
	ok=0 bad=0 warn=0 note=""
	[ -z "$dir" ] || read -r ok bad warn < <(counts "$dir")
	v=$(verdict "$ok" "$bad")
	[ $((ok + bad)) -gt 0 ] || note=" (0 checks)"
}

echo "conformance-serve: $suite${requirements:+ --requirements $requirements}"
echo "  reference: $direct_url; through serve: ${serve_url%/*}/TOKEN"
run_all direct "$direct_url"
run_all serve "$serve_url"
[ -z "$stdio_url" ] || run_all stdio "$stdio_url"
mapfile -t all < <(sort -u <(scenarios direct) <(scenarios serve))
[ ${#all[@]} -gt 0 ] || {
	echo "conformance: the suite ran no server scenarios (see $out/direct.log)" >&2
	exit 1
}

failed=0 dpass=0 spass=0 ipass=0 stale=0
printf '%-5s %-48s %-22s %-22s%s\n' "" scenario "direct" "through serve" "${stdio_url:+ serve on stdio}"
for s in "${all[@]}"; do
	result direct "$s"
	dv=$v dok=$ok dbad=$bad dnote=$note
	result serve "$s"
	sv=$v sok=$ok sbad=$bad snote=$note
	icol="" stdio_fail=""
	if [ -n "$stdio_url" ]; then
		result stdio "$s"
		icol=" $v $ok/$((ok + bad))$note"
		[ "$v" = PASS ] && ipass=$((ipass + 1))
		if [ "$dv" = PASS ] && [ "$v" = FAIL ] && [ "$s" != dns-rebinding-protection ] && ! listed "$serve_bugs" "$s"; then
			stdio_fail=1
		fi
	fi
	[ "$dv" = PASS ] && dpass=$((dpass + 1))
	[ "$sv" = PASS ] && spass=$((spass + 1))
	mark=ok why=""
	if [ "$dv" = FAIL ] && ! listed "$baseline" "$s"; then
		mark=FAIL why="the reference fails it and $baseline does not list it"
	elif [ "$dv" = PASS ] && listed "$baseline" "$s"; then
		why="listed in $baseline but the reference passes it: stale"
		stale=$((stale + 1))
	fi
	if [ "$dv" = PASS ] && [ "$sv" = FAIL ]; then
		if listed "$serve_bugs" "$s"; then
			mark=bug why="an open serve bug ($serve_bugs)"
		else
			mark=FAIL why="passes directly, fails through serve"
		fi
	elif [ "$sv" = PASS ] && listed "$serve_bugs" "$s"; then
		why="listed in $serve_bugs but passes through serve: stale"
		stale=$((stale + 1))
	fi
	if [ "$s" = dns-rebinding-protection ] && [ "$sv" = FAIL ]; then
		mark=FAIL why="serve must protect itself from DNS rebinding"
	fi
	if [ -n "$stdio_fail" ]; then
		mark=FAIL why="passes directly, fails through serve on stdio"
	fi
	[ "$mark" = FAIL ] && failed=$((failed + 1))
	printf '%-5s %-48s %-22s %-22s%s%s\n' "$mark" "$s" "$dv $dok/$((dok + dbad))$dnote" "$sv $sok/$((sok + sbad))$snote" "$icol" "${why:+  ($why)}"
done
echo "conformance-serve: ${#all[@]} scenarios; passed directly $dpass, through serve $spass${stdio_url:+, through serve on stdio $ipass}; $failed failing the run (results in $out)"
[ "$stale" -eq 0 ] || echo "conformance-serve: $stale listed scenario(s) pass: remove them from the lists"
[ "$failed" -eq 0 ]
