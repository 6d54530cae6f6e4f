// server-json.mjs URL — prints the mcpdeck server definition for the
// conformance server at URL. For auth scenarios, scenario data from
// MCP_CONFORMANCE_CONTEXT becomes the server's "oauth" block as a person
// would configure it; secrets (client secret, private key, IdP ID token)
// go through the environment (client.sh), never into the config.
const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO || "";
const server = { type: "http", url };
const raw = process.env.MCP_CONFORMANCE_CONTEXT;
if (raw) {
  const ctx = JSON.parse(raw);
  const oauth = {};
  if (ctx.client_id) oauth.clientId = ctx.client_id;
  if (scenario.includes("client-credentials")) {
    oauth.grant = "client_credentials";
    oauth.tokenEndpointAuthMethod = ctx.private_key_pem ? "private_key_jwt" : "client_secret_basic";
  }
  if (ctx.signing_algorithm) oauth.signingAlgorithm = ctx.signing_algorithm;
  // enterprise-managed authorization is cross-app access under its new name
  if (scenario.includes("cross-app-access") || scenario.includes("enterprise-managed-authorization")) {
    oauth.grant = "xaa";
    if (ctx.idp_token_endpoint) oauth.idpTokenEndpoint = ctx.idp_token_endpoint;
    if (ctx.idp_issuer) oauth.idpIssuer = ctx.idp_issuer;
    if (ctx.idp_client_id) oauth.idpClientId = ctx.idp_client_id;
  }
  if (Object.keys(oauth).length > 0) server.oauth = oauth;
}
if (scenario === "auth/basic-cimd") {
  // The client's Client ID Metadata Document is the suite's own test
  // document; a person sets oauth.clientMetadataUrl to theirs the same way.
  server.oauth = { ...(server.oauth || {}), clientMetadataUrl: "https://conformance-test.local/client-metadata.json" };
}
process.stdout.write(JSON.stringify(server));
