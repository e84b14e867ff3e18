import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';

/** Where dev and preview servers forward API, device-channel and docs calls; VITE_API_PROXY overrides. */
const DEFAULT_API_PROXY = 'http://localhost:8080';

const buildProxy = (target: string): Record<string, ProxyOptions> => ({
  '/api': { target, changeOrigin: true },
  '/country': { target, changeOrigin: true },
  '/docs': { target, changeOrigin: true },
  '/mqtt': { target, changeOrigin: true, ws: true },
});

export default defineConfig(({ mode }) => {
  // loadEnv also picks up VITE_* variables from the process environment.
  const env = loadEnv(mode, new URL('.', import.meta.url).pathname);
  const proxy = buildProxy(env.VITE_API_PROXY || DEFAULT_API_PROXY);
  return {
    plugins: [react()],
    build: { outDir: 'dist' },
    server: { proxy },
    preview: { proxy },
  };
});
