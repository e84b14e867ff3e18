import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

/** Where dev and preview servers forward API, device-channel and docs calls; VITE_API_PROXY overrides. */
const DEFAULT_API_PROXY = 'http://localhost:8080';

/** Kisht's own brand colour (app/theme DEFAULT_PRIMARY_COLOR); organisations re-theme at run time. */
const THEME_COLOR = '#1f4fd1';

/** The translations' runtime cache (lib/offline-language.ts LOCALES_CACHE warms it). */
const LOCALES_CACHE = 'kisht-locales';

const buildProxy = (target: string): Record<string, ProxyOptions> => ({
  '/api': { target, changeOrigin: true },
  '/country': { target, changeOrigin: true },
  '/docs': { target, changeOrigin: true },
  '/partner': { target, changeOrigin: true },
  '/mqtt': { target, changeOrigin: true, ws: true },
});

/**
 * Service worker and manifest (spec §2, §4: offline ready, update waiting). The app registers the
 * worker itself (components/reload-prompt.tsx) and asks before it takes over ('prompt').
 * Navigations fall back to index.html, except the server's own paths (API, device channel, docs),
 * which must always reach the server.
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: null,
  includeAssets: ['favicon.svg'],
  manifest: {
    name: 'Kisht',
    short_name: 'Kisht',
    description: 'Kisht: device financing for phone retailers',
    theme_color: THEME_COLOR,
    background_color: '#f5f6fa',
    display: 'standalone',
    start_url: '/',
    icons: [
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
      { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
      { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // No fonts: the Noto faces of all ten languages (app/theme/fonts.css) weigh ~1.2 MB, and a
    // phone needs the Latin one and its own language's; they are cached when first used (below).
    globPatterns: ['**/*.{js,css,html,json,svg,png}'],
    // Nor the ten languages' strings (issue 28: a quarter of the precache): the one a phone shows
    // (and English, its fallback) is kept by the runtime cache below, warmed by the app
    // (lib/offline-language.ts); another is fetched when chosen.
    globIgnores: ['locales/**'],
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [
      /^\/api/,
      /^\/country/,
      /^\/mqtt/,
      /^\/docs/,
      /^\/partner\//,
      /^\/upload/,
      /^\/emm/,
      /^\/micromdm/,
    ],
    runtimeCaching: [
      {
        // Translations (spec §7 GET /locales/{lng}.json): served from cache, refreshed behind.
        urlPattern: ({ url }) => url.pathname.startsWith('/locales/') && url.pathname.endsWith('.json'),
        handler: 'StaleWhileRevalidate',
        options: { cacheName: LOCALES_CACHE, expiration: { maxEntries: 20 } },
      },
      {
        // The bundled font files: content-hashed, so a cached copy never goes stale. 36 faces
        // (9 subsets × 4 weights) fit; older builds' files leave as newer ones come in.
        urlPattern: ({ request, url }) => request.destination === 'font' || url.pathname.endsWith('.woff2'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'kisht-fonts',
          expiration: { maxEntries: 40, maxAgeSeconds: 365 * 24 * 60 * 60, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  },
});

/**
 * Brotli and gzip copies of every text file of the build (`.br`, `.gz` beside it) that is worth
 * compressing, which the server sends when the browser accepts them (plugins/web-app.ts,
 * @fastify/static preCompressed; issue 17). Skipped where compression would not make it smaller.
 */
const precompress = compression({
  algorithms: ['brotliCompress', 'gzip'],
  include: /\.(js|mjs|css|html|json|svg|webmanifest|txt)$/,
  threshold: 1024,
  skipIfLargerOrEqual: true,
});

export default defineConfig(({ mode }) => {
  // loadEnv also picks up VITE_* variables from the process environment.
  const env = loadEnv(mode, new URL('.', import.meta.url).pathname);
  const proxy = buildProxy(env.VITE_API_PROXY || DEFAULT_API_PROXY);
  return {
    plugins: [react(), pwa, precompress],
    build: {
      outDir: 'dist',
      // The manifest lets bench/src/web-budget.ts find each route's chunks (issue 17).
      manifest: true,
    },
    server: { proxy },
    preview: { proxy },
  };
});
