import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores; each server worker opens its own PGlite (~0.7 s from the template, ~200 MiB).
    maxWorkers: 2,
    projects: [
      'packages/domain',
      'apps/server',
      'apps/server/vitest.isolated.config.ts',
      'apps/device-agent',
      'apps/web',
      'apps/web/vitest.isolated.config.ts',
    ],
  },
});
