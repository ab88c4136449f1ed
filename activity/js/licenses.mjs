// licenses.mjs writes the licences of the packages bundled into
// ../static/activity.js (the lockfile's packages that are not for
// development) to ../static/THIRD_PARTY_LICENSES.txt, in a stable order.
import fs from "node:fs";
import path from "node:path";

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const out = ["Third-party software bundled into activity.js, with its licences.\n"];
for (const key of Object.keys(lock.packages).sort()) {
  const p = lock.packages[key];
  if (!key || p.dev) continue;
  const dir = key;
  const text = fs
    .readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying)/i.test(f))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8").trim())
    .join("\n\n");
  out.push("=".repeat(72), `${key.replace(/^.*node_modules\//, "")} ${p.version} (${p.license})`, "", text || `Licence: ${p.license}`, "");
}
fs.writeFileSync("../static/THIRD_PARTY_LICENSES.txt", out.join("\n"));
