// Compiles a Node workspace (the server, the device agent) to JavaScript for production: its entry
// points bundled with esbuild into <workspace>/dist, with the TypeScript source of @kisht/* packages
// inside the bundle and every other dependency left to node_modules (a production install has
// them: `npm ci --omit=dev`); `copy:<from>=<to>` copies a folder the code reads at run time (the
// server's migrations) into dist. Usage: node scripts/bundle-node.mjs <workspace dir> <name=entry>...
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const [workspace, ...args] = process.argv.slice(2);
const entries = args.filter((arg) => !arg.startsWith('copy:'));
const copies = args
  .filter((arg) => arg.startsWith('copy:'))
  .map((arg) => arg.slice('copy:'.length).split('='));
if (!workspace || entries.length === 0) {
  console.error('usage: node scripts/bundle-node.mjs <workspace dir> <name=entry.ts>...');
  process.exit(2);
}
const root = resolve(workspace);
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dependencies = Object.keys(manifest.dependencies ?? {});
const ownPackages = dependencies.filter((name) => name.startsWith('@kisht/'));
// What the workspace and the @kisht packages it bundles import from node_modules.
const external = [
  ...dependencies.filter((name) => !name.startsWith('@kisht/')),
  ...ownPackages.flatMap((name) => {
    const own = JSON.parse(
      readFileSync(join(root, '../..', 'packages', name.slice('@kisht/'.length), 'package.json'), 'utf8'),
    );
    return Object.keys(own.dependencies ?? {});
  }),
];
const outdir = join(root, 'dist');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(entries.map((entry) => entry.split('='))),
  outdir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // A package left out is an import of node_modules at run time, subpaths included.
  external,
  logLevel: 'warning',
});
for (const [from, to] of copies) cpSync(join(root, from), join(outdir, to), { recursive: true });
console.log(`${manifest.name}: ${entries.map((entry) => entry.split('=')[0]).join(', ')} in ${outdir}`);
