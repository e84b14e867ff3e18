/**
 * Budget check (issue 17, "web weight"): the JavaScript and CSS the browser loads to open /login
 * and /dashboard of the built web app, raw and brotli, against a brotli budget per route. Reads
 * apps/web/dist (index.html and .vite/manifest.json; build with `npm run build -w @kisht/web`),
 * walks the manifest from the entry and each route's lazily imported chunks (support/vite-manifest.ts),
 * and prints a table per route (file, raw, br) with totals. The brotli size is the `.br` file the
 * build wrote beside each asset (what the server sends), else the file compressed here with
 * brotliCompressSync (or the raw size when that is not smaller, as the server then sends the file).
 * Run: `npm run web-budget -w @kisht/bench` (LOGIN_BUDGET_KB=120, BUDGET_KB=200, WEB_DIST=<dir>). Exits 1 when a route
 * is over its budget, 2 when the build is missing or does not match the route table below.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { TManifest } from './support/vite-manifest';
import { collectPageFiles, findEntryKey, findManifestKey } from './support/vite-manifest';

const DIST = resolve(process.env.WEB_DIST ?? new URL('../../apps/web/dist', import.meta.url).pathname);
/** The budget of a signed-in page, KB brotli (issue 28: 200); /login has its own (LOGIN_BUDGET_KB, 120). */
const BUDGET_KB = Number(process.env.BUDGET_KB ?? 200);
/** 1 KB = 1,000 bytes, as Vite's build report and browsers' network panels count. */
const BYTES_PER_KB = 1000;

/**
 * What each route loads on top of the entry, as manifest source names. The sign-in screens start
 * light (issue 28, apps/web/src/app/sign-in-start.tsx): /login is the entry alone, with no service
 * worker registration yet. Every other page loads the app's module (app/full-app.tsx), which
 * registers the service worker (workbox-window, a dynamic import of components/reload-prompt.tsx),
 * the AppShell (app/layout/app-shell.tsx, a lazy chunk of its own; when it is not in the manifest
 * it is part of the app's module and counted there) and the route's page. The dashboard loads the
 * dashboard of the signed-in user's type (app/dashboard-route.tsx): the shop's is counted.
 */
const ROUTES: ReadonlyArray<{ path: string; sources: string[]; budgetKb: number }> = [
  { path: '/login', sources: [], budgetKb: Number(process.env.LOGIN_BUDGET_KB ?? 120) },
  {
    // As a shop sees it (the demo retailer); a customer loads app/customer-dashboard.tsx instead.
    path: '/dashboard',
    sources: [
      'src/app/full-app.tsx',
      'workbox-window/build/workbox-window.prod.es5.mjs',
      'src/app/layout/app-shell.tsx',
      'src/app/dashboard-route.tsx',
      'src/app/retailer-dashboard.tsx',
    ],
    budgetKb: BUDGET_KB,
  },
];

type TFileSize = { file: string; raw: number; br: number };

/** Bytes on the wire with brotli: the build's `.br` copy, else compressed here at quality 11. */
const sizeOf = (file: string): TFileSize => {
  const path = join(DIST, file);
  const raw = statSync(path).size;
  const brPath = `${path}.br`;
  if (existsSync(brPath)) return { file, raw, br: statSync(brPath).size };
  const compressed = brotliCompressSync(readFileSync(path), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  return { file, raw, br: Math.min(raw, compressed) };
};

const kb = (bytes: number) => (bytes / BYTES_PER_KB).toFixed(1).padStart(8);

const manifestPath = join(DIST, '.vite', 'manifest.json');
if (!existsSync(manifestPath) || !existsSync(join(DIST, 'index.html'))) {
  console.error(`No build with a manifest at ${DIST}: run \`npm run build -w @kisht/web\` first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as TManifest;
const entryKey = findEntryKey(manifest);
const hasSource = (source: string) => {
  try {
    findManifestKey(manifest, source);
    return true;
  } catch {
    return false;
  }
};

// index.html must load what the manifest says the entry is (a sanity check of the walk's start).
const indexHtml = readFileSync(join(DIST, 'index.html'), 'utf8');
const entryFile = manifest[entryKey]?.file ?? '';
if (!indexHtml.includes(`/${entryFile}"`)) {
  console.error(`index.html does not load the manifest's entry ${entryFile}`);
  process.exit(2);
}

console.log(`Web budget (issues 17, 28): ${DIST}, brotli budget per route (1 KB = 1,000 bytes)\n`);
const over: string[] = [];
for (const route of ROUTES) {
  const lazySources = route.sources.filter(
    // The AppShell may be in the entry (not lazy): then it is counted with the entry.
    (source) => source !== 'src/app/layout/app-shell.tsx' || hasSource(source),
  );
  const roots = [entryKey, ...lazySources.map((source) => findManifestKey(manifest, source))];
  const { js, css } = collectPageFiles(manifest, roots);
  const sizes = [...js, ...css].map(sizeOf);
  const raw = sizes.reduce((sum, size) => sum + size.raw, 0);
  const br = sizes.reduce((sum, size) => sum + size.br, 0);
  const width = Math.max(...sizes.map((size) => size.file.length), 5);
  console.log(`${route.path}: ${js.length} JS + ${css.length} CSS files`);
  console.log(`  ${'file'.padEnd(width)}  ${'raw KB'.padStart(8)}  ${'br KB'.padStart(8)}`);
  for (const size of [...sizes].sort((a, b) => b.br - a.br)) {
    console.log(`  ${size.file.padEnd(width)}  ${kb(size.raw)}  ${kb(size.br)}`);
  }
  const isOver = br > route.budgetKb * BYTES_PER_KB;
  console.log(
    `  ${'total'.padEnd(width)}  ${kb(raw)}  ${kb(br)}  ${isOver ? 'OVER' : 'within'} ${route.budgetKb} KB\n`,
  );
  if (isOver) over.push(`${route.path} ${(br / BYTES_PER_KB).toFixed(1)} KB`);
}

if (over.length > 0) {
  console.error(`Over the brotli budget: ${over.join(', ')}`);
  process.exit(1);
}
console.log('Every route is within its brotli budget.');
