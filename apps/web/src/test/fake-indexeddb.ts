import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';

/**
 * Gives the page an empty IndexedDB of its own (fake-indexeddb, in memory) for one test: jsdom has
 * none, and the setup file's vi.unstubAllGlobals takes it away after the test, so no saved read
 * reaches another test or file.
 */
export const stubIndexedDb = () => vi.stubGlobal('indexedDB', new IDBFactory());
