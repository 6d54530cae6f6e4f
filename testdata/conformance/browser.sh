#!/usr/bin/env bash
# browser.sh URL — a stand-in for the person's browser in the conformance auth
# scenarios: fetch the authorization URL and follow its redirects, which end
# at mcpdeck's loopback callback.
set -euo pipefail
node -e '
let u = process.argv[1];
(async () => {
  for (let i = 0; i < 10; i++) {
    const r = await fetch(u, { redirect: "manual" });
    const loc = r.headers.get("location");
    if (r.status < 300 || r.status >= 400 || !loc) { await r.text(); return; }
    u = new URL(loc, u).toString();
  }
})().catch((e) => { console.error("browser.sh:", e.message); process.exit(1); });
' "$1" &
