import { configure } from '@testing-library/react';
import { ASYNC_UTIL_TIMEOUT_MS } from './timeouts';

// The web tests' one timeout policy (test/timeouts.ts): findBy* and waitFor wait this long.
configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });
