// server-json.mjs URL — prints the mcpdeck server definition for the
// conformance server at URL. For auth scenarios, scenario data from
// MCP_CONFORMANCE_CONTEXT (client_id, private_key_pem, ...) becomes the
// server's "oauth" block; secrets go through the environment, never config.
const url = process.argv[2];
const server = { type: "http", url };
const raw = process.env.MCP_CONFORMANCE_CONTEXT;
if (raw) {
  const ctx = JSON.parse(raw);
  const oauth = {};
  if (ctx.client_id) oauth.clientId = ctx.client_id;
  if (ctx.private_key_pem) oauth.privateKeyPem = ctx.private_key_pem;
  if (ctx.signing_algorithm) oauth.signingAlgorithm = ctx.signing_algorithm;
  if (Object.keys(oauth).length > 0) server.oauth = oauth;
}
process.stdout.write(JSON.stringify(server));
