#!/usr/bin/env bash
# client.sh [ARGS...] SERVER_URL — mcpdeck as the client of the MCP conformance
# suite (@modelcontextprotocol/conformance). The runner appends the server URL
# and names the scenario in MCP_CONFORMANCE_SCENARIO (and scenario data, e.g.
# pre-registered client credentials, in MCP_CONFORMANCE_CONTEXT as JSON).
# Every scenario maps to plain mcpdeck CLI commands, as a person would type them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
url="${!#}"
bin="${MCPDECK_BIN:-mcpdeck}"
scenario="${MCP_CONFORMANCE_SCENARIO:?MCP_CONFORMANCE_SCENARIO is not set}"

# An isolated home: the person's own config, tokens and project files never
# take part, and each scenario starts with no stored tokens.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" \
	MCPDECK_MANAGED_DIR="$work/managed"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$MCPDECK_MANAGED_DIR"
cd "$HOME"

# server JSON for the "s" server: {"type":"http","url":...} plus, for auth
# scenarios, the oauth block built from MCP_CONFORMANCE_CONTEXT.
server_json() {
	node "$here/server-json.mjs" "$url"
}
deck() {
	"$bin" --mcp-config "{\"mcpServers\":{\"s\":$(server_json)}}" "$@"
}

case "$scenario" in
initialize)
	# connect (initialize + list) and print the health line
	deck mcp list
	;;
tools_call)
	deck call s add_numbers '{"a":5,"b":7}'
	;;
elicitation-sep1034-client-defaults)
	deck --elicit accept-defaults call s test_client_elicitation_defaults '{}'
	;;
sep-2322-client-request-state)
	# each tool answers "input required" (or not) and the call retries with
	# the gathered input; the unrelated call must carry none of it
	deck --elicit accept-defaults call s test_mrtr_echo_state '{}'
	deck --elicit accept-defaults call s test_mrtr_no_state '{}'
	deck call s test_mrtr_unrelated '{}'
	deck call s test_mrtr_no_result_type '{}'
	;;
sse-retry)
	# the server closes the call's SSE stream after a priming event with
	# retry: 500; the client must resume with GET + Last-Event-ID
	deck call s test_reconnection '{}'
	;;
request-metadata)
	# every request carries _meta (protocol version, client info and
	# capabilities) and MCP-Protocol-Version; the server refuses the first one
	# with -32022 and the client retries at the version it names
	deck tools s
	;;
http-standard-headers)
	# Mcp-Method on every request, Mcp-Name on tools/call, resources/read
	# and prompts/get
	deck tools s
	deck call s test_headers '{}'
	deck call s my-hyphenated-tool '{}'
	deck resources s
	deck read s 'file:///path/to/file%20name.txt'
	deck prompts s
	deck prompt s test_prompt
	;;
http-custom-headers)
	# the tool calls the scenario data names, arguments as given: their
	# x-mcp-header parameters travel as Mcp-Param-* headers too
	calls=$(node -e 'for (const c of JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).toolCalls) console.log(c.name + "\t" + JSON.stringify(c.arguments))')
	while IFS=$'\t' read -r tool args; do
		deck call s "$tool" "$args"
	done <<<"$calls"
	;;
http-invalid-tool-headers)
	# tools with invalid x-mcp-header declarations are left out of the list
	# and cannot be called; the valid one can
	deck tools s
	deck call s valid_tool '{"region":"us-west1"}'
	;;
json-schema-ref-no-deref)
	# list the tools: the network $ref in lookup_user's schema is never fetched
	deck tools s --json
	;;
json-schema-2020-12-preservation)
	# pass the focal tool's input schema, as `tools --json` shows it, back to
	# the echo tool
	schema=$(deck tools s --json | node -e '
		const out = JSON.parse(require("fs").readFileSync(0, "utf8"));
		const t = out[0].items.find((t) => t.name === "json_schema_2020_12_tool");
		process.stdout.write(JSON.stringify(t.inputSchema));')
	deck call s json_schema_echo "{\"schema\": $schema}"
	;;
sep-2640-client-no-prefetch)
	# listing skills must read none of their files
	deck skills s
	;;
sep-2640-client-verify-*)
	# the server serves a SKILL.md that does not match its list entry: the
	# load must fail and print nothing
	deck skills s
	if deck skill s pdf-processing; then
		echo "client.sh: mcpdeck loaded a skill that does not match its list entry" >&2
		exit 1
	fi
	;;
auth/*)
	# The suite's authorization server redirects at once, so a "browser" that
	# fetches the URL and follows the redirects to our loopback callback
	# completes the real authorization-code flow.
	export BROWSER="$here/browser.sh"
	if [ -n "${MCP_CONFORMANCE_CONTEXT:-}" ]; then
		# secrets from the scenario data, where mcpdeck reads them
		ctx() { node -e 'process.stdout.write(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT)[process.argv[1]] || "")' "$1"; }
		v=$(ctx client_secret) && [ -z "$v" ] || export MCPDECK_CLIENT_SECRET="$v"
		v=$(ctx private_key_pem) && [ -z "$v" ] || export MCPDECK_CLIENT_PRIVATE_KEY="$v"
		v=$(ctx idp_id_token) && [ -z "$v" ] || export MCPDECK_IDP_ID_TOKEN="$v"
		# the workload JWT where the platform would put it (oauth.assertionFile)
		v=$(ctx valid_jwt) && [ -z "$v" ] || (umask 077 && printf '%s\n' "$v" >"$HOME/workload.jwt")
	fi
	deck auth s
	deck call s test-tool '{}'
	;;
*)
	echo "client.sh: no mcpdeck mapping for scenario $scenario" >&2
	exit 2
	;;
esac
