#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx kisht-agent` works without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
