import { parseArgs } from 'node:util';
import { AppError } from '@kisht/domain/common/errors';
import { ZAppTypeCode, ZKeyQuantity } from '@kisht/domain/ledger/ledger.schema';
import { z } from 'zod';
import type { Db } from '../db/client';
import { createOrgAdmin, creditKeysByMobile } from '../modules/ledger/ledger.service';

/**
 * The organisation admin's command line (issue 13), on the same database and configuration as the
 * server (DATABASE_URL, else the PGlite data directory PGLITE_DATA_DIR, which only one process may
 * open: stop the server first when it runs on PGlite):
 *
 *   npm run admin -w @kisht/server -- create-admin --org 41 --mobile 9876500000 --name "Asha Admin"
 *   npm run admin -w @kisht/server -- credit-keys --org 41 --retailer-mobile 9876543210 --app-type 0 --quantity 10 [--note "…"]
 */
export const ADMIN_USAGE = `Usage:
  admin create-admin --org <id> --mobile <10-digit mobile> --name "<name>"
  admin credit-keys --org <id> --retailer-mobile <10-digit mobile> --app-type <code> --quantity <n> [--note "<note>"]`;

const ZOrg = z.coerce.number().int().positive();

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

const required = (values: Record<string, string | undefined>, name: string): string => {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

const parsed = <T>(schema: z.ZodType<T>, value: string, name: string): T => {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`--${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
};

/**
 * Runs one admin command on `db` and returns the line to print. Throws UsageError for a bad
 * command line and AppError for what the ledger refuses (unknown organisation or retailer, an
 * admin already on that mobile).
 */
export const runAdminCommand = async (db: Db, argv: string[]): Promise<string> => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      mobile: { type: 'string' },
      name: { type: 'string' },
      'retailer-mobile': { type: 'string' },
      'app-type': { type: 'string' },
      quantity: { type: 'string' },
      note: { type: 'string' },
    },
  });
  const [command] = positionals;
  const orgId = () => parsed(ZOrg, required(values, 'org'), 'org');
  if (command === 'create-admin') {
    const id = await createOrgAdmin(db, {
      orgId: orgId(),
      mobile: required(values, 'mobile'),
      name: required(values, 'name'),
    });
    return `Created admin ${id} in organisation ${values.org}; they log in with an OTP on ${values.mobile}.`;
  }
  if (command === 'credit-keys') {
    const appType = parsed(z.coerce.number().pipe(ZAppTypeCode), required(values, 'app-type'), 'app-type');
    const quantity = parsed(z.coerce.number().pipe(ZKeyQuantity), required(values, 'quantity'), 'quantity');
    const movement = await creditKeysByMobile(db, {
      orgId: orgId(),
      retailerMobile: required(values, 'retailer-mobile'),
      appType,
      quantity,
      note: values.note,
    });
    return `Credited ${movement.quantity} keys of app type ${movement.appType} (movement ${movement.id}).`;
  }
  throw new UsageError(command ? `Unknown command: ${command}` : 'Name a command');
};

/** `npm run admin -w @kisht/server -- <command> …`: opens the database as the server does, runs, exits. */
const main = async () => {
  const { loadConfig } = await import('../config');
  const { openDatabase } = await import('../db/client');
  // The CLI only opens the database: without NODE_ENV it reads the configuration as `npm start`
  // does (development), so it needs none of the production-only secrets; a deployment sets NODE_ENV.
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDataDir: config.PGLITE_DATA_DIR,
  });
  try {
    console.log(await runAdminCommand(handle.db, process.argv.slice(2)));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${ADMIN_USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof AppError) {
      console.error(`${error.code}: ${error.message}`);
      process.exitCode = 1;
    } else throw error;
  } finally {
    await handle.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) await main();
