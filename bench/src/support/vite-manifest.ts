/**
 * Reading a Vite build manifest (`dist/.vite/manifest.json`, `build.manifest: true`): which JS and
 * CSS files the browser loads for a page. Pure functions, no I/O. Source: Vite's "Backend
 * integration" guide (manifest chunks: `file`, `imports`, `dynamicImports`, `css`, `isEntry`).
 */

/** One chunk of the manifest, as Vite writes it (only the fields read here). */
export type TManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};

/** The manifest: chunk key (a source path such as `src/app/login-route.tsx`, or `_name-hash.js`) → chunk. */
export type TManifest = Record<string, TManifestChunk>;

/** The files a page loads, in load order, each once: `js` chunk files and `css` files (paths under dist). */
export type TPageFiles = { js: string[]; css: string[] };

/**
 * Finds the manifest key of a source file: the exact key, else the one key ending in `/<source>`
 * (node_modules entries are keyed `../../node_modules/...`). Throws when none or several match,
 * since a budget counted without a route's chunk would be wrong.
 */
export const findManifestKey = (manifest: TManifest, source: string): string => {
  if (manifest[source]) return source;
  const matches = Object.keys(manifest).filter((key) => key.endsWith(`/${source}`));
  if (matches.length !== 1) {
    throw new Error(`${matches.length === 0 ? 'no' : 'several'} manifest entries for ${source}`);
  }
  return matches[0] as string;
};

/**
 * The JS and CSS files the browser loads for a page whose code starts at `roots` (manifest keys:
 * the entry, then the page's lazily imported chunks): each root and, depth first, every chunk it
 * imports statically (`imports`, which the browser fetches before running the chunk), with each
 * chunk's `css`. Dynamic imports are not followed: they load only when that code asks for them,
 * so a page names the ones it needs as roots. Throws on a key missing from the manifest.
 */
export const collectPageFiles = (manifest: TManifest, roots: readonly string[]): TPageFiles => {
  const seen = new Set<string>();
  const js: string[] = [];
  const css = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    js.push(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return { js, css: [...css] };
};

/** The manifest key of the build's entry (`isEntry`, e.g. `index.html`). Throws unless there is exactly one. */
export const findEntryKey = (manifest: TManifest): string => {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  return (entries[0] as [string, TManifestChunk])[0];
};
