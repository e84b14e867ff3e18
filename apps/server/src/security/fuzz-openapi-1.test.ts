import { defineFuzzSuite } from './fuzz-openapi.suite';

// Shard 1 of 2 of the OpenAPI fuzz suite (fuzz-openapi.suite.ts): the two files run side by side.
await defineFuzzSuite({ index: 0, count: 2 });
