import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_SCHEMAS_DIR, protocolSchemaFiles } from './protocol-schemas';
import { PROTOCOL_VECTORS_FILE, protocolVectorsText } from './protocol-vectors';

/**
 * `npm run protocol:docs`: writes docs/protocol/schemas/ (every JSON Schema and its README, removing
 * files no longer generated) and docs/protocol/vectors.json. Run it after changing a protocol schema
 * or the crypto; protocol-docs.test.ts and protocol-vectors.test.ts fail until you do.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

const schemasDir = join(ROOT, PROTOCOL_SCHEMAS_DIR);
const schemas = protocolSchemaFiles();
mkdirSync(schemasDir, { recursive: true });
for (const stale of filesUnder(schemasDir).filter((file) => !schemas.has(file)))
  rmSync(join(schemasDir, stale));
for (const [file, text] of schemas) {
  mkdirSync(dirname(join(schemasDir, file)), { recursive: true });
  writeFileSync(join(schemasDir, file), text);
}
writeFileSync(join(ROOT, PROTOCOL_VECTORS_FILE), protocolVectorsText());
console.log(`wrote ${schemas.size} files to ${PROTOCOL_SCHEMAS_DIR}/ and ${PROTOCOL_VECTORS_FILE}`);
