#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx kisht-conformance` works without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/conformance/cli.ts');
process.exitCode = await main(process.argv.slice(2));
