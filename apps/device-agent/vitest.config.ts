import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'device-agent', include: ['src/**/*.test.ts'] } });
