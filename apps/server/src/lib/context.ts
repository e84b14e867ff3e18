import type { TConfig } from '../config';
import type { Db } from '../db/client';
import type { CommandDispatcher } from '../device-channel/dispatcher';
import type { SmsTransport } from '../modules/auth/sms';

/** What every module gets from buildApp: the database, config and shared services. */
export type AppContext = {
  db: Db;
  config: TConfig;
  sms: SmsTransport;
  dispatcher: CommandDispatcher;
};
