// count.mjs DIR — sums the conformance checks saved under DIR (every
// checks.json below it) and prints "SUCCESS FAILURE WARNING" counts.
import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
let success = 0, failure = 0, warning = 0;
for (const f of globSync("**/checks.json", { cwd: dir })) {
  for (const c of JSON.parse(readFileSync(join(dir, f), "utf8"))) {
    if (c.status === "SUCCESS") success++;
    else if (c.status === "FAILURE") failure++;
    else if (c.status === "WARNING") warning++;
  }
}
console.log(`${success} ${failure} ${warning}`);
