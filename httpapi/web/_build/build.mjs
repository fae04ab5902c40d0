// Bundles markdown-it (pinned in package-lock.json) into one ES module,
// ../vendor/markdown-it.js, which the Go binary embeds with the page.
// Run: npm ci && npm run build (in httpapi/web/_build; the underscore keeps this folder out of
// the Go embed). See docs/web.md.
import { build } from "esbuild";
import { readFileSync, writeFileSync, existsSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./node_modules/markdown-it/package.json", import.meta.url)));

await build({
  entryPoints: [new URL("./entry.js", import.meta.url).pathname],
  outfile: new URL("../vendor/markdown-it.js", import.meta.url).pathname,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: false,
  legalComments: "inline",
  charset: "utf8",
  banner: {
    js: `// markdown-it ${pkg.version} (MIT, https://github.com/markdown-it/markdown-it) and its dependencies,\n// bundled by httpapi/web/build/build.mjs. Generated: do not edit; see docs/web.md.`,
  },
});

// The licences of everything in the bundle, next to it.
const packages = ["markdown-it", "entities", "linkify-it", "mdurl", "punycode.js", "uc.micro"];
let text = "Licences of the code bundled in markdown-it.js.\n";
for (const name of packages) {
  const dir = new URL(`./node_modules/${name}/`, import.meta.url);
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENSE-MIT.txt"].map((f) => new URL(f, dir)).find((u) => existsSync(u));
  const version = JSON.parse(readFileSync(new URL("package.json", dir))).version;
  text += `\n==== ${name} ${version} ====\n\n` + (file ? readFileSync(file, "utf8") : "(no licence file in the package)\n");
}
writeFileSync(new URL("../vendor/LICENSES.txt", import.meta.url), text);
